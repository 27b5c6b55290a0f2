import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { NotAllowed } from "@/components/auth/not-allowed";
import { ComparePicker } from "@/components/agents/compare-picker";
import { CompareView } from "@/components/agents/compare-view";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { actorCan } from "@/server/auth/actor";
import { getDatabase } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { versionChoices } from "@/server/receipts/agent-versions";
import { compareCandidates } from "@/server/receipts/compare-candidates";
import { requireActor } from "@/app/current-actor";
import { agentFromPath, singleParam } from "../../agent-path";

// /agents/<agent>/compare?a=<id>&b=<id>: two versions of one agent side by side, as a link to share. A link naming
// an unknown version, another agent's, or a repeated parameter answers 404 (compare/not-found.tsx says which it
// may be); the same version twice, or one missing, shows the picker with a sentence.
type Props = { params: Promise<{ agent: string }>; searchParams: Promise<{ a?: string | string[]; b?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const agent = await agentFromPath((await params).agent, ["compare"]);
  return { title: agent ? `${agent} · compare versions` : "Compare versions" };
}

async function comparisonOf(agent: string, a: string, b: string) {
  try {
    return { comparison: await compareCandidates(await getDatabase(), { agent, a, b }), problem: null };
  } catch (e) {
    if (e instanceof DomainError && e.code === "NOT_FOUND") notFound();
    if (e instanceof DomainError && e.code === "BAD_REQUEST") return { comparison: null, problem: e.message.replace(/^b: /, "") };
    throw e;
  }
}

export default async function ComparePage({ params, searchParams }: Props) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const agent = await agentFromPath((await params).agent, ["compare"]);
  const query = await searchParams;
  const [a, b] = [singleParam(query.a), singleParam(query.b)];
  const choices = agent === null ? [] : await versionChoices((await getDatabase()).db, agent);
  if (agent === null || !choices.length || a === false || b === false) notFound();
  const { comparison, problem } = a && b ? await comparisonOf(agent, a, b) : { comparison: null, problem: choices.length < 2 ? "This agent has one version only: nothing to compare it with yet." : "Pick two versions to compare." };
  const home = `/agents/${encodeURIComponent(agent)}`;
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href={home} className="hover:underline" data-testid="agent-link">
            ← {agent}&apos;s model
          </Link>
        }
        title={<span className="break-words" data-testid="compare-title">Compare versions of {agent}</span>}
        description="Two versions side by side: verdict, the seven checks, the locked gate's figures, the config keys that differ, and the cases where they differ most."
      />
      <div className="space-y-4">
        <Card>
          <ComparePicker agent={agent} choices={choices} a={a} b={b} />
          {problem && (
            <p className="mt-3 text-sm text-ink-2" data-testid="compare-problem">
              {problem}
            </p>
          )}
        </Card>
        {comparison && <CompareView comparison={comparison} />}
      </div>
    </>
  );
}
