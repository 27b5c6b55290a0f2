import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { ApprovalsPage } from "@/components/approvals/approvals-page";

export const metadata: Metadata = { title: "Approvals" };

export default function Page() {
  return (
    <>
      <PageHeader title="Approvals" description="Signed approvals, rejections and rollbacks, with what each changed." />
      <ApprovalsPage />
    </>
  );
}
