"use client";

// The locked held-out gate, candidate and exact parent case by case: protected cases grouped by family (each
// regression named, a filter for family, case and regressions only), then the general cases summarized. The
// rule that makes a row "regressed" is stated under the title with the tolerance the gate applied, and each
// row says which part of it held (lib/candidates/regression-rule.ts).
import { Fragment, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { signed } from "@/components/ui/format";
import { TextInput } from "@/components/ui/form";
import { regressionReason, regressionRule } from "@/lib/candidates/regression-rule";
import { CaseLink } from "./case-link";
import type { GateReportView } from "./types";

type Evidence = GateReportView["evidence"];
type Row = Evidence["comparison"]["rows"][number];

const score = (s: Row["parent"]) => (s ? `${s.score.toFixed(2)} ${s.passed ? "✓" : "✗"}` : "—");

function Filters({ families, family, setFamily, text, setText, onlyRegressed, setOnlyRegressed }: {
  families: string[];
  family: string;
  setFamily: (f: string) => void;
  text: string;
  setText: (t: string) => void;
  onlyRegressed: boolean;
  setOnlyRegressed: (b: boolean) => void;
}) {
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
      <label className="sr-only" htmlFor="case-family">
        Family
      </label>
      <select id="case-family" value={family} onChange={(e) => setFamily(e.target.value)} className="rounded-md border border-line bg-panel px-2 py-1.5 text-sm text-ink">
        <option value="">All families</option>
        {families.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
      <TextInput aria-label="Filter cases" placeholder="Filter cases" value={text} onChange={(e) => setText(e.target.value)} className="!w-40 !py-1.5" />
      <label className="flex items-center gap-1.5 text-ink-2">
        <input type="checkbox" checked={onlyRegressed} onChange={(e) => setOnlyRegressed(e.target.checked)} /> regressions only
      </label>
    </div>
  );
}

/** One protected case: both sides' scores, the change, the outcome — and, unless it held, why (also on hover). */
function CaseLine({ candidateId, row: r, tolerance }: { candidateId: string; row: Row; tolerance: number }) {
  const why = regressionReason(r, tolerance);
  const badge = r.regressed === null ? { tone: "unavailable" as const, text: "missing" } : r.regressed ? { tone: "fail" as const, text: "regressed" } : { tone: "pass" as const, text: "held" };
  return (
    <tr className={`border-t border-line ${r.regressed ? "bg-fail/5" : ""}`} data-regressed={r.regressed ? "yes" : "no"} title={why}>
      <td className="py-1 pl-2">
        <span className="font-mono text-xs break-all">
          <CaseLink candidateId={candidateId} caseId={r.caseId} />
        </span>
        {r.regressed !== false && (
          <span className={`block text-xs ${r.regressed ? "text-fail" : "text-unavailable"}`} data-testid="regression-reason">
            {why}
          </span>
        )}
      </td>
      <td className="py-1 text-right whitespace-nowrap tabular-nums">{score(r.parent)}</td>
      <td className="py-1 text-right whitespace-nowrap tabular-nums">{score(r.candidate)}</td>
      <td className="py-1 text-right tabular-nums">{r.delta === null ? "—" : signed(r.delta, 2)}</td>
      <td className="py-1 text-right">
        <Badge tone={badge.tone} title={why}>
          {badge.text}
        </Badge>
      </td>
    </tr>
  );
}

export function ProtectedCasesCard({ candidateId, evidence }: { candidateId: string; evidence: Evidence }) {
  const { comparison, protectedCases } = evidence;
  const [family, setFamily] = useState("");
  const [text, setText] = useState("");
  const [onlyRegressed, setOnlyRegressed] = useState(false);
  const tolerance = comparison.protectedScoreTolerance;
  const rows = comparison.rows.filter((r) => r.protected);
  const shown = rows.filter((r) => (!family || r.family === family) && (!text || r.caseId.toLowerCase().includes(text.toLowerCase())) && (!onlyRegressed || r.regressed));
  const groups = protectedCases.families.map((f) => ({ ...f, rows: shown.filter((r) => r.family === f.family) })).filter((g) => g.rows.length > 0);
  return (
    <Card
      title="Protected cases, candidate vs exact parent"
      description={
        <>
          <span className="block text-ink-2" data-testid="regression-rule">
            {regressionRule(tolerance)} A family fails check 5 when it has more regressions than it allows.
          </span>
          {protectedCases.totalRegressions} regression{protectedCases.totalRegressions === 1 ? "" : "s"} across {protectedCases.families.length} protected families.
        </>
      }
    >
      <div id="protected-cases" className="scroll-mt-4" />
      {rows.length === 0 ? (
        <p className="text-sm text-unavailable">No protected case results: unavailable.</p>
      ) : (
        <>
          <Filters families={protectedCases.families.map((f) => f.family)} {...{ family, setFamily, text, setText, onlyRegressed, setOnlyRegressed }} />
          <div className="relative max-h-96 overflow-y-auto" tabIndex={0} role="region" aria-label="protected cases">
            <table className="w-full text-sm" data-testid="protected-cases">
              <thead className="text-xs text-ink-3">
                <tr>
                  <th className="py-1 text-left font-medium">Case</th>
                  <th className="py-1 text-right font-medium">Parent</th>
                  <th className="py-1 text-right font-medium">Candidate</th>
                  <th className="py-1 text-right font-medium">Δ</th>
                  <th className="py-1 text-right font-medium">
                    <span className="sr-only">Outcome</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {groups.map((g) => (
                  <Fragment key={g.family}>
                    <tr className="border-t border-line bg-panel-2" data-testid="case-family">
                      <th colSpan={5} scope="colgroup" className="px-1 py-1 text-left text-xs font-medium text-ink-2">
                        {g.family} · {g.rows.length} case{g.rows.length === 1 ? "" : "s"}{" "}
                        <Badge tone={g.status === "held" ? "pass" : g.status === "regressed" ? "fail" : "unavailable"}>
                          {g.status}: {g.regressions.length}/{g.maxRegressions} allowed
                        </Badge>
                      </th>
                    </tr>
                    {g.rows.map((r) => (
                      <CaseLine key={r.caseId} candidateId={candidateId} row={r} tolerance={tolerance} />
                    ))}
                  </Fragment>
                ))}
              </tbody>
            </table>
            {groups.length === 0 && <p className="py-2 text-sm text-ink-3">No case matches the filter.</p>}
          </div>
        </>
      )}
    </Card>
  );
}

export function LockedGateSummary({ evidence }: { evidence: Evidence }) {
  const c = evidence.comparison;
  if (c.status !== "available") {
    return (
      <p className="text-sm text-unavailable">
        Locked gate {c.status}
        {c.problems.length ? `: ${c.problems.join("; ")}` : ""}.
      </p>
    );
  }
  return (
    <p className="text-sm text-ink-2">
      {c.cases} held-out cases: candidate mean <b className="tabular-nums">{c.candidateMean?.toFixed(3)}</b>, parent mean <b className="tabular-nums">{c.parentMean?.toFixed(3)}</b>, gain{" "}
      <b className={`tabular-nums ${c.gain !== null && c.gain > 0 ? "text-pass" : "text-fail"}`}>{c.gain === null ? "—" : signed(c.gain)}</b>.
    </p>
  );
}
