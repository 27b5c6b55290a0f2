import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Audit" };

export default function AuditPage() {
  return (
    <>
      <PageHeader title="Audit" description="The hash-chained record of every change, and whether the chain is intact." />
      <EmptyState title="The audit log is empty" />
    </>
  );
}
