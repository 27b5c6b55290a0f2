import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Rollouts" };

export default function RolloutsPage() {
  return (
    <>
      <PageHeader title="Rollouts" description="Every task a runner attempted, its attempts and the reason each one started." />
      <EmptyState title="No rollouts in the store yet" />
    </>
  );
}
