import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { CompareRuns } from "@/components/sweeps/compare-runs";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Compare runs" };

export default async function CompareRunsPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader eyebrow={<Link href="/training" className="hover:text-ink">Training</Link>} title="Compare runs" description="Any training runs side by side: the metrics they record per update, one chart per metric, and where their configs differ." />
      <CompareRuns />
    </>
  );
}
