import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Training" };

export default function TrainingPage() {
  return (
    <>
      <PageHeader title="Training" description="Live training runs with reward curves, progress and the candidates each run produced." />
      <EmptyState title="No training runs yet" />
    </>
  );
}
