"use client";

// The locked held-out gate, candidate and exact parent case by case: protected families first (each
// regression named), then the general cases summarized.
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { signed } from "@/components/ui/format";
import type { GateReportView } from "./types";

type Evidence = GateReportView["evidence"];

export function ProtectedCasesCard({ evidence }: { evidence: Evidence }) {
  const { comparison, protectedCases } = evidence;
  const rows = comparison.rows.filter((r) => r.protected);
  return (
    <Card title="Protected cases, candidate vs exact parent" description={`${protectedCases.totalRegressions} regression${protectedCases.totalRegressions === 1 ? "" : "s"} across ${protectedCases.families.length} protected families.`}>
      <div className="mb-3 flex flex-wrap gap-2">
        {protectedCases.families.map((f) => (
          <Badge key={f.family} tone={f.status === "held" ? "pass" : f.status === "regressed" ? "fail" : "unavailable"}>
            {f.family}: {f.status} ({f.regressions.length}/{f.maxRegressions} allowed)
          </Badge>
        ))}
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-unavailable">No protected case results: unavailable.</p>
      ) : (
        <table className="w-full text-sm" data-testid="protected-cases">
          <thead className="text-xs text-ink-3">
            <tr>
              <th className="py-1 text-left font-medium">Case</th>
              <th className="py-1 text-right font-medium">Parent</th>
              <th className="py-1 text-right font-medium">Candidate</th>
              <th className="py-1 text-right font-medium">Δ</th>
              <th className="py-1 text-right font-medium" />
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.caseId} className={`border-t border-line ${r.regressed ? "bg-fail/5" : ""}`} data-regressed={r.regressed ? "yes" : "no"}>
                <td className="py-1 font-mono text-xs">{r.caseId}</td>
                <td className="py-1 text-right tabular-nums">{r.parent ? `${r.parent.score.toFixed(2)} ${r.parent.passed ? "✓" : "✗"}` : "—"}</td>
                <td className="py-1 text-right tabular-nums">{r.candidate ? `${r.candidate.score.toFixed(2)} ${r.candidate.passed ? "✓" : "✗"}` : "—"}</td>
                <td className="py-1 text-right tabular-nums">{r.delta === null ? "—" : signed(r.delta, 2)}</td>
                <td className="py-1 text-right">{r.regressed === null ? <Badge tone="unavailable">missing</Badge> : r.regressed ? <Badge tone="fail">regressed</Badge> : <Badge tone="pass">held</Badge>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

export function LockedGateSummary({ evidence }: { evidence: Evidence }) {
  const c = evidence.comparison;
  if (c.status !== "available") {
    return <p className="text-sm text-unavailable">Locked gate {c.status}{c.problems.length ? `: ${c.problems.join("; ")}` : ""}.</p>;
  }
  return (
    <p className="text-sm text-ink-2">
      {c.cases} held-out cases: candidate mean <b className="tabular-nums">{c.candidateMean?.toFixed(3)}</b>, parent mean <b className="tabular-nums">{c.parentMean?.toFixed(3)}</b>, gain{" "}
      <b className={`tabular-nums ${c.gain !== null && c.gain > 0 ? "text-pass" : "text-fail"}`}>{c.gain === null ? "—" : signed(c.gain)}</b>.
    </p>
  );
}
