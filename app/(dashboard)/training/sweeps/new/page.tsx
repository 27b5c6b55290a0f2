import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { SweepForm } from "@/components/sweeps/sweep-form";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "New sweep" };

export default async function NewSweepPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader eyebrow={<Link href="/training/sweeps" className="hover:text-ink">Sweeps</Link>} title="New sweep" description="Every config of the space is checked against the family's schema first; then all runs are queued at once, or none." />
      <SweepForm />
    </>
  );
}
