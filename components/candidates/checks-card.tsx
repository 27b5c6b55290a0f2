"use client";

// The seven checks, each with its status, the sentence that decided it and its evidence on demand (links to
// the rollouts and traces behind it; raw JSON behind a toggle). Why a check went stale is said once, in the
// decision banner; here a stale row says what it was before.
import { Fragment, useState } from "react";
import { ChevronDown, ChevronRight } from "lucide-react";
import { Card } from "@/components/ui/card";
import { check4FloorSentence } from "@/lib/candidates/check4-floor";
import { Time } from "@/components/ui/time";
import { CheckEvidence } from "./check-evidence";
import { CheckStatusBadge } from "./verdict";
import type { CheckView } from "./types";

type Paired = { method: string; n: number; confidence: number; interval: [number, number]; meanDelta: number };
const signedNum = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;

/** Check 4's paired comparison in one line: the interval, n and the method, also while the check is stale. */
function PairedTest({ evidence }: { evidence: CheckView["evidence"] }) {
  const p = (evidence as { pairedTest?: Paired | null }).pairedTest;
  if (!p) return null;
  return (
    <p className="mb-2 px-2 text-sm text-ink-2" data-testid="paired-test">
      Mean per-case gain {signedNum(p.meanDelta)}, {Math.round(p.confidence * 100)} % interval {signedNum(p.interval[0])} to {signedNum(p.interval[1])}, n = {p.n} — {p.method}.
    </p>
  );
}

/** Check 4's policy floor (cases, minimum gain) and what this candidate had, always beside the check. */
function Check4Floor({ evidence }: { evidence: CheckView["evidence"] }) {
  const sentence = check4FloorSentence(evidence as Record<string, unknown>);
  if (!sentence) return null;
  return (
    <div className="mt-0.5 text-xs text-ink-3" data-testid="check4-floor">
      {sentence}
    </div>
  );
}

export function ChecksCard({ title, checks, testId }: { title: string; checks: CheckView[]; testId: string }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Card title={title} description="Each check is a pure function of the sealed receipt, the evidence, the policy and now. Open one for the evidence behind it.">
      <table className="w-full text-left text-sm" data-testid={testId}>
        <tbody>
          {checks.map((c) => (
            <Fragment key={c.id}>
              <tr className="border-b border-line align-top last:border-0" data-testid={`check-${c.id}`} data-status={c.status}>
                <td className="w-8 py-2 pr-1">
                  <button type="button" aria-label={`evidence of check ${c.id}`} aria-expanded={open === c.id} className="p-0.5 text-ink-3 hover:text-ink" onClick={() => setOpen(open === c.id ? null : c.id)}>
                    {open === c.id ? <ChevronDown className="h-4 w-4" /> : <ChevronRight className="h-4 w-4" />}
                  </button>
                </td>
                <td className="w-6 py-2 pr-2 font-semibold text-ink-2 tabular-nums">{c.id}</td>
                <td className="py-2 pr-3">
                  <div className="flex flex-wrap items-center gap-x-2 font-medium text-ink">
                    {c.title}
                    <span className="sm:hidden">
                      <CheckStatusBadge status={c.status} />
                    </span>
                  </div>
                  {c.stale ? (
                    <div className="mt-0.5 text-stale">It said {c.stale.was} on evidence that predates the change named above; a gate re-run judges it again.</div>
                  ) : (
                    <div className="mt-0.5 break-words text-ink-2">{c.explanation}</div>
                  )}
                  {c.id === 4 && <Check4Floor evidence={c.evidence} />}
                  <div className="mt-0.5 text-[11px] text-ink-3 sm:hidden">computed {c.computedAt ? <Time at={c.computedAt} /> : "— no evidence"}</div>
                </td>
                <td className="hidden w-44 py-2 text-right sm:table-cell">
                  <CheckStatusBadge status={c.status} />
                  <div className="mt-1 text-[11px] text-ink-3">{c.computedAt ? <Time at={c.computedAt} /> : "no evidence"}</div>
                </td>
              </tr>
              {open === c.id && (
                <tr className="border-b border-line">
                  <td colSpan={4} className="max-w-0 pb-3">
                    <PairedTest evidence={c.evidence} />
                    <CheckEvidence check={c} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
