import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { StartRunForm } from "@/components/training/start-run-form";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Start a training run" };

export default async function NewRunPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader eyebrow="Training" title="Start a training run" description="A trainer worker claims the run; PPO and Q-learning collect through the store's runners, the other families step in the worker." />
      <StartRunForm />
    </>
  );
}
