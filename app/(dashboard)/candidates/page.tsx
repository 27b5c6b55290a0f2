import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Candidates" };

export default function CandidatesPage() {
  return (
    <>
      <PageHeader title="Candidates" description="Each candidate next to its exact parent, judged by the seven checks." />
      <EmptyState title="No candidates yet" />
    </>
  );
}
