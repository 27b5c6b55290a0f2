import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header";
import { CandidatesList } from "@/components/candidates/candidates-list";

export const metadata: Metadata = { title: "Candidates" };

export default function CandidatesPage() {
  return (
    <>
      <PageHeader
        title="Candidates"
        description="Every resource update an algorithm wrote, judged by the seven checks against its exact parent. A verdict says how far it may go — never that it is safe."
      />
      <Suspense>
        <CandidatesList />
      </Suspense>
    </>
  );
}
