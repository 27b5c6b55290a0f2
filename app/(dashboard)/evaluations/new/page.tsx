import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { AbTestForm } from "@/components/evaluations/ab-form";
import { EvaluationForm } from "@/components/evaluations/evaluation-form";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "New evaluation" };

export default async function NewEvaluationPage({ searchParams }: { searchParams: Promise<{ kind?: string }> }) {
  const actor = await requireActor();
  if (!actorCan(actor, "training:run")) return <NotAllowed scope="training:run" />;
  const ab = (await searchParams).kind === "ab";
  return (
    <>
      <PageHeader
        eyebrow="Evaluations"
        title={ab ? "New A/B test" : "New evaluation"}
        description={
          ab
            ? "Two training configurations, each trained once per seed and scored on the same evaluation tasks, compared with Welch's t test or Mann–Whitney, Holm-adjusted over the metrics, with the power a chosen difference needs."
            : "Run evaluation protocols on a family config (trained here) or on a stored policy."
        }
      />
      {ab ? <AbTestForm /> : <EvaluationForm />}
    </>
  );
}
