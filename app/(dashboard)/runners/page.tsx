import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Runners" };

export default function RunnersPage() {
  return (
    <>
      <PageHeader title="Runners" description="Workers pulling from this store, with their heartbeats." />
      <EmptyState title="No runner has connected yet" />
    </>
  );
}
