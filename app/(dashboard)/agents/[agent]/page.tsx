import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { NotAllowed } from "@/components/auth/not-allowed";
import { AutoJudgePanel } from "@/components/agents/auto-judge-panel";
import { PointerHistory, PointersNow } from "@/components/agents/pointer-history";
import { VersionsTable } from "@/components/agents/versions-table";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { actorCan } from "@/server/auth/actor";
import { getDatabase } from "@/server/db/client";
import { agentPointerHistory, isPointerKind } from "@/server/receipts/agent-pointers";
import { agentVersions } from "@/server/receipts/agent-versions";
import { requireActor } from "@/app/current-actor";
import { agentFromPath } from "../agent-path";

// The agent's model page, as a registered model reads in MLflow: what each pointer names now, every version with
// its verdict (judged as the candidates list judges it), and every pointer move.
type Props = { params: Promise<{ agent: string }>; searchParams: Promise<{ pointer?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const agent = await agentFromPath((await params).agent);
  return { title: agent ? `${agent} · model` : "Agent" };
}

/** Judging every version takes a moment: the pointers and their history show while it streams in. */
async function Versions({ agent }: { agent: string }) {
  const versions = await agentVersions(await getDatabase(), agent);
  return versions && <VersionsTable data={versions} />;
}

export default async function AgentPage({ params, searchParams }: Props) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const agent = await agentFromPath((await params).agent);
  const raw = (await searchParams).pointer;
  const pointer = typeof raw === "string" && isPointerKind(raw) ? raw : undefined;
  const history = agent === null ? null : await agentPointerHistory((await getDatabase()).db, agent, { pointer });
  if (!history) notFound();
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href={`/candidates?agent=${encodeURIComponent(history.agent)}`} className="hover:underline">
            ← {history.agent}&apos;s candidates
          </Link>
        }
        title={<span className="break-words" data-testid="agent-title">{history.agent}</span>}
        description="The agent's model: what each pointer names now, every version with its verdict, and every pointer move — who, why, and the signed decision behind it."
      />
      <div className="space-y-4">
        <PointersNow history={history} />
        <Suspense fallback={<Card title="Versions"><p className="text-sm text-ink-2">Loading the versions…</p></Card>}>
          <Versions agent={history.agent} />
        </Suspense>
        <AutoJudgePanel agent={history.agent} />
        <PointerHistory history={history} filter={pointer ?? null} />
      </div>
    </>
  );
}
