import { notFound } from "next/navigation";
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { SweepDetail } from "@/components/sweeps/sweep-detail";
import { getDatabase } from "@/server/db/client";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Sweep" };

export default async function SweepPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const { id } = await params;
  const sweep = await (await getDatabase()).db.trainingSweep.findUnique({ where: { id }, select: { name: true, family: true } });
  if (!sweep) notFound();
  return (
    <>
      <PageHeader
        eyebrow={<Link href="/training/sweeps" className="hover:text-ink">Sweeps</Link>}
        title={sweep.name}
        description={<span className="font-mono text-xs">{id} · {sweep.family}</span>}
      />
      <SweepDetail id={id} />
    </>
  );
}
