import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Resources" };

export default function ResourcesPage() {
  return (
    <>
      <PageHeader title="Resources" description="Resource versions, the latest-candidate and approved-default pointers, and diffs." />
      <EmptyState title="No resources yet" />
    </>
  );
}
