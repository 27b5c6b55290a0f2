import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { ApprovalsPage } from "@/components/approvals/approvals-page";

export const metadata: Metadata = { title: "Approvals" };

export default function Page() {
  return (
    <>
      <PageHeader title="Approvals" description="Your inbox: what needs your signature, what is in the bounded canary now, and who decided what — read from the same receipts as the candidate pages." />
      <ApprovalsPage />
    </>
  );
}
