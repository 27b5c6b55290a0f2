"use client";

// Bounded canary outcomes, each with how it was verified (destination re-read, judge or human with its
// confidence, or not at all), and the rollback test that loaded the exact parent in the same boundary.
import { Badge, type Tone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import type { CandidateDetail, GateReportView } from "./types";

type Stage3 = NonNullable<CandidateDetail["stage3"]>;
type Outcome = NonNullable<Stage3["canary"]>["outcomes"][number];

function how(o: Outcome): string {
  const v = o.verification;
  switch (v.method) {
    case "destination":
      return `re-read ${v.destination.kind} ${v.destination.ref}: ${v.matched ? "matched" : `expected ${v.expected}, found ${v.observed ?? "nothing"}`}`;
    case "judge":
      return `judge ${v.judgeId} said ${v.verdict} (confidence ${v.confidence.toFixed(2)}) — weaker evidence`;
    case "human":
      return `reviewer ${v.reviewerId} said ${v.verdict} (confidence ${v.confidence.toFixed(2)}) — weaker evidence`;
    case "unverified":
      return `not verified: ${v.reason}`;
  }
}

const FINDING_TONE: Record<string, Tone> = { verified: "pass", "weakly-verified": "warn", "wrong-outcome": "fail", unverified: "unavailable" };

export function CanaryCard({ stage3, evidence }: { stage3: Stage3 | null; evidence: GateReportView["evidence"] }) {
  const run = stage3?.canary;
  const s = evidence.canary;
  const finding = new Map<string, string>();
  for (const [kind, tasks] of Object.entries(s.findings)) for (const t of tasks) finding.set(t, kind);
  return (
    <Card
      id="canary"
      title="Bounded canary"
      description={
        run ? (
          <>
            {s.verified} of {s.tasks} tasks verified · {run.environment} on {run.modelServer} · <Time at={run.window.start} /> → <Time at={run.window.end} />
          </>
        ) : (
          "No canary ran: unavailable."
        )
      }
    >
      {run && (
        <>
          <div className="mb-2 flex flex-wrap gap-2 text-xs">
            <Badge tone={s.harmful.length ? "fail" : "pass"}>{s.harmful.length} harmful side effects</Badge>
            <Badge tone={s.boundary.tasksOver || s.boundary.costOver || s.boundary.disallowedTools.length ? "fail" : "pass"}>
              inside boundary · ${s.boundary.costUsd.toFixed(2)}
            </Badge>
          </div>
          <div className="relative max-h-80 overflow-y-auto" tabIndex={0} role="region" aria-label="canary outcomes">
            <table className="w-full text-sm" data-testid="canary-outcomes">
              <tbody>
                {run.outcomes.map((o) => (
                  <tr key={o.taskId} className="border-t border-line align-top">
                    <td className="py-1 pr-2 font-mono text-xs whitespace-nowrap">{o.taskId}</td>
                    <td className="py-1 pr-2 text-xs break-words text-ink-2">{how(o)}</td>
                    <td className="py-1 text-right">
                      <Badge tone={FINDING_TONE[finding.get(o.taskId) ?? "unverified"]}>{finding.get(o.taskId) ?? "unverified"}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Card>
  );
}

export function RollbackCard({ stage3 }: { stage3: Stage3 | null }) {
  const t = stage3?.rollbackTest;
  const ok = t?.loaded && t.routedBack;
  return (
    <Card id="rollback" title="Rollback test" description="The exact parent loaded in the same boundary, and routing shown to return to it.">
      {!t ? (
        <p className="text-sm text-unavailable">Not run: unavailable.</p>
      ) : (
        <div className="space-y-1 text-sm" data-testid="rollback-test">
          <Badge tone={ok ? "pass" : "fail"}>{ok ? "parent loaded, routing returned" : t.loaded ? "parent loaded, routing did not return" : "parent could not be loaded"}</Badge>
          <p className="text-ink-2">{t.detail}</p>
          <p className="text-xs text-ink-3">
            {t.parent.resourceId} v{t.parent.version} in {t.environment} · <Time at={t.checkedAt} />
          </p>
        </div>
      )}
    </Card>
  );
}
