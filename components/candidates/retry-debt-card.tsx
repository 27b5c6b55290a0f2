"use client";

// Retry debt beside the exact parent: attempts by the reason each started, one column per side, and each side's
// debt against its own budget — over budget said in the fail tone with by how much.
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { ScrollX } from "@/components/ui/scroll-x";
import { Stat } from "@/components/ui/stat";
import { compareRetries, debtStanding, parentAbsence, type RetrySide } from "@/lib/candidates/side-by-side";
import { ParentAbsent, SideCells, type ParentSide } from "./side-cells";
import type { GateReportView } from "./types";

type Evidence = GateReportView["evidence"];

function Debt({ label, side, detail, testId }: { label: string; side: RetrySide; detail: string; testId: string }) {
  const standing = debtStanding(side);
  return (
    <div data-testid={testId} data-over-budget={standing.overBy > 0 ? "yes" : "no"}>
      <Stat
        label={label}
        value={`${side.debt} / ${side.budget}`}
        tone={standing.tone === "unavailable" ? undefined : standing.tone}
        hint={
          <span className="flex flex-col items-start gap-0.5">
            <Badge tone={standing.tone}>{standing.text}</Badge>
            {detail}
          </span>
        }
      />
    </div>
  );
}

const detailOf = (r: Evidence["retryDebt"]) => `${r.unexpectedRetries} unexpected + ${r.excessResamples} excess resamples; ${r.attempts} attempts over ${r.rollouts} rollouts`;

export function RetryDebtCard({ evidence, parent }: { evidence: Evidence; parent: ParentSide }) {
  const r = evidence.retryDebt;
  const p = parent.evidence?.retryDebt ?? null;
  const absence = parentAbsence(parent);
  const rows = compareRetries(r, p);
  return (
    <Card title="Retry debt" description="Attempts by the reason each one started, parent beside candidate. Debt: unexpected retries plus resamples beyond the plan, against each side's declared budget (debt / budget).">
      <ParentAbsent sentence={absence} />
      <div className="mb-3 grid grid-cols-2 gap-2">
        {p ? <Debt label="Parent debt / budget" side={p} detail={detailOf(p)} testId="retry-debt-parent" /> : <Stat label="Parent debt / budget" value={<span className="text-ink-3">—</span>} hint="nothing to compare" />}
        <Debt label="Candidate debt / budget" side={r} detail={detailOf(r)} testId="retry-debt-candidate" />
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-unavailable">No attempts recorded: unavailable.</p>
      ) : (
        <ScrollX label="attempts by reason">
          <table className="w-full text-sm" data-testid="retry-reasons">
            <caption className="sr-only">Attempts by the reason each started, parent and candidate</caption>
            <thead className="text-xs text-ink-3">
              <tr>
                <th className="py-1 text-left font-medium">Reason</th>
                <th className="py-1 pl-2 text-right font-medium">
                  <span className="sr-only">Counts as</span>
                </th>
                {p && <th className="py-1 pl-2 text-right font-medium">Parent</th>}
                <th className="py-1 pl-2 text-right font-medium">Candidate</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.reason} className="border-t border-line" data-reason={row.reason}>
                  <td className="py-1">{row.label}</td>
                  <td className="py-1 pl-2 text-right">{row.expected ? <Badge>expected</Badge> : <Badge tone="warn">debt</Badge>}</td>
                  <SideCells parent={row.parent} candidate={row.candidate} showParent={p !== null} />
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
    </Card>
  );
}
