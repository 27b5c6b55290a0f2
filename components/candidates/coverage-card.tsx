"use client";

// Span coverage beside the exact parent: per declared family, how many succeeded rollouts lack it on each side
// and the change, then each side's fully-covered share. A side with nothing to judge says so, never "0 missing".
import { Card } from "@/components/ui/card";
import { percent } from "@/components/ui/format";
import { ScrollX } from "@/components/ui/scroll-x";
import { Stat } from "@/components/ui/stat";
import { compareCoverage, parentAbsence, type CoverageRatio } from "@/lib/candidates/side-by-side";
import { Change, ParentAbsent, SideCells, type ParentSide } from "./side-cells";
import type { GateReportView } from "./types";

type Evidence = GateReportView["evidence"];

function Covered({ label, ratio, hint, testId }: { label: string; ratio: CoverageRatio; hint?: React.ReactNode; testId: string }) {
  if (!ratio) return <Stat label={label} value={<span className="text-unavailable">unavailable</span>} hint={hint} />;
  const all = ratio.fullyCovered === ratio.considered;
  return (
    <div data-testid={testId}>
      <Stat label={label} value={`${ratio.fullyCovered} / ${ratio.considered}`} hint={<>{percent(ratio.ratio, 1)}{hint ? <> · {hint}</> : null}</>} tone={all ? "pass" : "fail"} />
    </div>
  );
}

export function CoverageCard({ evidence, parent }: { evidence: Evidence; parent: ParentSide }) {
  const c = evidence.coverage;
  const absence = parentAbsence(parent);
  const withParent = !absence;
  const { rows, ratios, ratioDelta } = compareCoverage(c, parent.evidence?.coverage ?? null);
  return (
    <Card title="Span coverage" description={`Declared families every succeeded rollout must have, parent beside candidate: ${c.expectedFamilies.join(", ") || "none"}.`}>
      <ParentAbsent sentence={absence} />
      <div className="mb-3 grid grid-cols-2 gap-2">
        {withParent ? <Covered label="Parent fully covered" ratio={ratios.parent} testId="coverage-parent" /> : <Stat label="Parent fully covered" value={<span className="text-ink-3">—</span>} hint="nothing to compare" />}
        <Covered
          label="Candidate fully covered"
          ratio={ratios.candidate}
          testId="coverage-candidate"
          hint={ratioDelta === null ? (ratios.candidate ? undefined : "no succeeded rollout to judge or nothing declared") : <>Δ <Change delta={ratioDelta * 100} worseWhen="down" digits={1} unit=" pts" /></>}
        />
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-unavailable">No span family declared on either side: unavailable.</p>
      ) : (
        <ScrollX label="span coverage by family">
          <table className="w-full text-sm" data-testid="coverage-missing">
            <caption className="sr-only">Succeeded rollouts missing each declared span family, parent and candidate</caption>
            <thead className="text-xs text-ink-3">
              <tr>
                <th className="py-1 text-left font-medium">Family</th>
                {withParent && <th className="py-1 pl-2 text-right font-medium">Parent missing</th>}
                <th className="py-1 pl-2 text-right font-medium">Candidate missing</th>
                {withParent && <th className="py-1 pl-2 text-right font-medium">Δ</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.family} className="border-t border-line" data-family={r.family}>
                  <td className="py-1 font-mono text-xs break-all">{r.family}</td>
                  <SideCells parent={r.parent} candidate={r.candidate} showParent={withParent} bad />
                  {withParent && (
                    <td className="py-1 pl-2 text-right tabular-nums">
                      <Change delta={r.delta} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
      <p className="mt-3 text-xs text-ink-3">
        Candidate rollouts not judged: {c.excluded.failed} failed, {c.excluded.cancelled} cancelled, {c.excluded.unfinished} unfinished.
      </p>
    </Card>
  );
}
