import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Traces" };

export default function TracesPage() {
  return (
    <>
      <PageHeader title="Traces" description="Spans of one rollout or attempt, as a table, a tree and a waterfall." />
      <EmptyState title="Pick a rollout to see its spans" />
    </>
  );
}
