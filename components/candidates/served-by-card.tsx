"use client";

// Who served the locked gate and how its cases were scored: a `runner_reward` evaluator trusts the runners'
// own reward spans, so the card says so plainly and names them; results a disqualified identity served (not a
// runner key, or one with a hand in this candidate) are listed as not counted, with why.
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { servingSentence } from "@/lib/candidates/serving";
import type { CandidateDetail } from "./types";

type Serving = NonNullable<CandidateDetail["lockedGateServing"]>;

export function ServedByCard({ serving }: { serving: Serving | null }) {
  if (!serving) return null;
  return (
    <Card id="locked-gate-serving" title="Who served the locked gate" description="Only runner keys with no hand in this candidate count.">
      <div className="space-y-2 text-sm" data-testid="locked-gate-serving" data-scoring={serving.scoring ?? "none"}>
        <p className={serving.scoring === "runner_reward" ? "rounded border border-warn/40 bg-warn/5 px-3 py-2" : "text-ink-2"} data-testid="locked-gate-scoring">
          {servingSentence(serving)}
        </p>
        {serving.servers.length > 0 && (
          <ul className="space-y-1" data-testid="locked-gate-servers">
            {serving.servers.map((s) => (
              <li key={s.identity} className="flex flex-wrap items-center gap-x-2 gap-y-0.5" data-identity={s.identity} data-counted={s.counted}>
                <Badge tone={s.counted ? "pass" : "fail"}>{s.counted ? "counted" : "not counted"}</Badge>
                <span className="break-all font-medium text-ink">{s.name ?? s.identity}</span>
                <span className="break-all text-xs text-ink-3">
                  {s.identity}
                  {s.role ? ` · ${s.role}` : ""} · {s.rollouts} rollout{s.rollouts === 1 ? "" : "s"}
                </span>
                {s.reason && <span className="w-full text-xs text-fail">{s.reason}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
