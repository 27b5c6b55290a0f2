import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { CandidateView } from "@/components/candidates/candidate-view";

export const metadata: Metadata = { title: "Candidate" };

export default async function CandidatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/candidates" className="hover:underline">
            ← Candidates
          </Link>
        }
        title={`Candidate ${id}`}
        description="Judged against its exact parent by the seven checks; the verdict says how far it may go."
      />
      <CandidateView id={id} />
    </>
  );
}
