import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Approvals" };

export default function ApprovalsPage() {
  return (
    <>
      <PageHeader title="Approvals" description="Signed approvals, rejections and rollbacks, with what each changed." />
      <EmptyState title="No approvals yet" />
    </>
  );
}
