"use client";

// One locked-gate case of a candidate: what the gate scored on each side, what differs between the exact parent's
// trace and the candidate's (tools, final reward, span families, final output), then the two traces side by side
// — two columns from 1024 px, stacked parent-then-candidate below. The selected span of each side is in the URL.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { signed } from "@/components/ui/format";
import { Time } from "@/components/ui/time";
import { useUrlState } from "@/components/ui/url-state";
import { CaseTraceSide } from "./case-trace-side";
import type { CaseTracesDetail } from "./types";

type Difference = CaseTracesDetail["diff"]["differences"][number];

const reward = (r: number | null) => (r === null ? "none" : r.toFixed(3));
const times = (n: number) => (n === 0 ? "never" : `${n}×`);

function sentence(d: Difference): string {
  switch (d.kind) {
    case "tool":
      return `Tool ${d.tool}: called ${times(d.parent)} by the parent, ${times(d.candidate)} by the candidate.`;
    case "reward":
      return `Final reward: ${reward(d.parent)} on the parent, ${reward(d.candidate)} on the candidate.`;
    case "family":
      return `Span family ${d.family} only on the ${d.onlyOn}.`;
    case "output":
      return d.parent === null || d.candidate === null ? `Final output only on the ${d.parent === null ? "candidate" : "parent"}.` : "Final output text differs (both shown below).";
  }
}

function CaseSummary({ detail }: { detail: CaseTracesDetail }) {
  const { differences } = detail.diff;
  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2">
          <span>{detail.family}</span>
          {detail.protected && <Badge tone="accent">protected</Badge>}
          {detail.regressed === null ? <Badge tone="unavailable">missing</Badge> : detail.regressed ? <Badge tone="fail">regressed</Badge> : <Badge tone="pass">held</Badge>}
          {detail.delta !== null && <span className="text-xs font-normal text-ink-2 tabular-nums">Δ {signed(detail.delta, 3)}</span>}
        </span>
      }
      description={
        <>
          Judged {detail.gateRun ? <>by gate run <span className="font-mono">{detail.gateRun}</span> </> : ""}with evaluator {detail.evaluator}, locked gate ran <Time at={detail.ranAt} />.
        </>
      }
    >
      <h3 className="mb-1 text-xs font-medium text-ink-2">What differs between the two traces</h3>
      {differences.length === 0 ? (
        <p className="text-sm text-ink-2" data-testid="case-differences">
          No difference in tool calls, final reward, span families or final output.
        </p>
      ) : (
        <ul className="list-disc space-y-0.5 pl-5 text-sm text-ink" data-testid="case-differences">
          {differences.map((d, i) => (
            <li key={i} data-kind={d.kind}>
              {sentence(d)}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function CaseTracesView({ candidateId, caseId }: { candidateId: string; caseId: string }) {
  const trpc = useTRPC();
  const url = useUrlState();
  const { data, error, isLoading } = useQuery(trpc.candidates.caseTraces.queryOptions({ candidateId, caseId }));
  if (error) return <p role="alert" className="text-sm text-fail">{error.message}</p>;
  if (isLoading || !data) return <p className="text-sm text-ink-3">Loading the two traces…</p>;
  return (
    <div className="space-y-4">
      <CaseSummary detail={data} />
      <div className="grid items-start gap-4 lg:grid-cols-2" data-testid="case-sides">
        <CaseTraceSide detail={data} side="parent" selected={url.get("pspan")} onSelect={(k) => url.set({ pspan: k })} />
        <CaseTraceSide detail={data} side="candidate" selected={url.get("cspan")} onSelect={(k) => url.set({ cspan: k })} />
      </div>
    </div>
  );
}
