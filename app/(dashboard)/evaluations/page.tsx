import type { Metadata } from "next";
import Link from "next/link";
import { FlaskConical, Scale } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { EvaluationsList } from "@/components/evaluations/evaluations-list";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Evaluations" };

const action = "inline-flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium";

export default async function EvaluationsPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const canRun = actorCan(actor, "training:run");
  return (
    <>
      <PageHeader
        title="Evaluations"
        description="Evaluation protocols run on a family config or a stored policy, and A/B tests of two training configurations (Welch's t test or Mann–Whitney, Holm-adjusted over the metrics, with prospective power)."
        actions={
          canRun && (
            <>
              <Link href="/evaluations/new" className={`${action} border border-line bg-panel text-ink hover:bg-panel-2`}>
                <FlaskConical className="h-4 w-4" /> New evaluation
              </Link>
              <Link href="/evaluations/new?kind=ab" className={`${action} bg-accent text-accent-ink hover:brightness-110`}>
                <Scale className="h-4 w-4" /> New A/B test
              </Link>
            </>
          )
        }
      />
      <EvaluationsList />
    </>
  );
}
