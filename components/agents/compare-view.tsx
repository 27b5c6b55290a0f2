// Two versions of one agent side by side: verdict, the seven checks, the locked gate's mean and gain, coverage,
// retry debt and protected regressions; the config and resource keys that differ; and the cases where they
// differ most — or, when they sat different exams, a plain sentence saying so. Each table scrolls inside its own
// focusable region on a phone.
import Link from "next/link";
import type { ReactNode } from "react";
import { CheckStatusBadge, VerdictBadge } from "@/components/candidates/verdict";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { percent, signed } from "@/components/ui/format";
import { ScrollX } from "@/components/ui/scroll-x";
import type { ComparisonView, VersionSideView } from "./types";

const th = "px-2 py-1.5 text-left text-xs font-medium text-ink-3";
const td = "px-2 py-1.5 align-top";
const na = <span className="text-unavailable">unavailable</span>;

function SideHead({ side, letter }: { side: VersionSideView; letter: "A" | "B" }) {
  return (
    <div className="min-w-0 space-y-1" data-testid={`side-${letter.toLowerCase()}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded bg-panel-2 px-1.5 text-xs font-semibold text-ink-2">{letter}</span>
        <Link href={`/candidates/${encodeURIComponent(side.id)}`} className="font-medium break-words text-accent hover:underline">
          {side.name}
        </Link>
        {side.label && <Badge>{side.label}</Badge>}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <VerdictBadge verdict={side.status} testId={`verdict-${letter.toLowerCase()}`} />
        {side.promotion && side.promotion.toUpperCase() !== side.status && <span className="text-xs text-ink-2">{side.promotion.toLowerCase()}</span>}
      </div>
      <div className="text-xs text-ink-2">
        exact parent {side.parent.resourcesId} v{side.parent.version}
      </div>
    </div>
  );
}

/** A three-column table, first column then A and B, scrolling inside its own focusable region on a phone. */
function SideBySide({ label, testId, first, a = "A", b = "B", children }: { label: string; testId: string; first: ReactNode; a?: ReactNode; b?: ReactNode; children: ReactNode }) {
  return (
    <ScrollX label={label}>
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="border-b border-line">
          <tr>
            <th className={th} scope="col">{first}</th>
            <th className={th} scope="col">{a}</th>
            <th className={th} scope="col">{b}</th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollX>
  );
}

type Figure = { key: string; label: string; cell: (s: VersionSideView) => ReactNode };

const FIGURES: Figure[] = [
  {
    key: "mean",
    label: "Locked-gate mean",
    cell: (s) =>
      s.lockedGate?.mean != null ? (
        <>
          <span className="tabular-nums">{s.lockedGate.mean.toFixed(3)}</span>
          <span className="block text-xs text-ink-2">
            {s.lockedGate.cases} cases of {s.lockedGate.dataset.id}
          </span>
        </>
      ) : (
        na
      ),
  },
  { key: "gain", label: "Gain vs its parent", cell: (s) => (s.gain === null ? na : <span className={`tabular-nums ${s.gain > 0 ? "text-pass" : "text-fail"}`}>{signed(s.gain)}</span>) },
  {
    key: "coverage",
    label: "Span coverage",
    cell: (s) =>
      s.coverage?.ratio != null ? (
        <>
          <span className="tabular-nums">{percent(s.coverage.ratio, 1)}</span>
          <span className="block text-xs text-ink-2">
            {s.coverage.fullyCovered} of {s.coverage.considered} rollouts
          </span>
        </>
      ) : (
        na
      ),
  },
  {
    key: "retry",
    label: "Retry debt",
    cell: (s) =>
      s.retryDebt && s.retryDebt.status === "available" ? (
        <span className={`tabular-nums ${s.retryDebt.debt > s.retryDebt.budget ? "text-fail" : ""}`}>
          {s.retryDebt.debt} <span className="text-xs text-ink-2">/ budget {s.retryDebt.budget}</span>
        </span>
      ) : (
        na
      ),
  },
  {
    key: "protected",
    label: "Protected regressions",
    cell: (s) =>
      s.protectedRegressions && s.protectedRegressions.status !== "invalid" ? (
        <>
          <span className={`tabular-nums ${s.protectedRegressions.total ? "text-fail" : ""}`}>{s.protectedRegressions.total}</span>
          {s.protectedRegressions.status === "unavailable" && <span className="block text-xs text-unavailable">incomplete</span>}
          {s.protectedRegressions.cases.length > 0 && <span className="block text-xs break-words text-ink-2">{s.protectedRegressions.cases.slice(0, 5).join(", ")}{s.protectedRegressions.cases.length > 5 ? " …" : ""}</span>}
        </>
      ) : (
        na
      ),
  },
];

function Figures({ c }: { c: ComparisonView }) {
  return (
    <SideBySide label="figures side by side" testId="compare-figures" first={<span className="sr-only">Figure</span>} a={`A · ${c.a.name}`} b={`B · ${c.b.name}`}>
      {FIGURES.map((f) => (
        <tr key={f.key} className="border-b border-line last:border-0" data-figure={f.key}>
          <th scope="row" className={`${td} text-left text-xs font-medium text-ink-2`}>{f.label}</th>
          <td className={td} data-side="a">{f.cell(c.a)}</td>
          <td className={td} data-side="b">{f.cell(c.b)}</td>
        </tr>
      ))}
    </SideBySide>
  );
}

function Checks({ c }: { c: ComparisonView }) {
  const ids = [...new Set([...c.a.checks, ...c.b.checks].map((k) => k.id))].sort((x, y) => x - y);
  if (!ids.length) return <p className="text-sm text-unavailable">Neither version has been judged: no check results to compare.</p>;
  const status = (s: VersionSideView, id: number) => s.checks.find((k) => k.id === id);
  return (
    <SideBySide label="checks side by side" testId="compare-checks" first="Check">
      {ids.map((id) => {
        const [x, y] = [status(c.a, id), status(c.b, id)];
        const differ = x?.status !== y?.status;
        return (
          <tr key={id} className={`border-b border-line last:border-0 ${differ ? "bg-panel-2" : ""}`} data-check={id} data-a={x?.status ?? "none"} data-b={y?.status ?? "none"}>
            <th scope="row" className={`${td} text-left font-normal text-ink`}>
              <span className="text-ink-3 tabular-nums">{id}.</span> {(x ?? y)?.title}
              {differ && <span className="sr-only"> (differs)</span>}
            </th>
            <td className={td}>{x ? <CheckStatusBadge status={x.status} /> : <span className="text-xs text-ink-3">not judged</span>}</td>
            <td className={td}>{y ? <CheckStatusBadge status={y.status} /> : <span className="text-xs text-ink-3">not judged</span>}</td>
          </tr>
        );
      })}
    </SideBySide>
  );
}

function Family({ r }: { r: { family: string; protected: boolean } }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1 text-xs text-ink-2">
      {r.family} {r.protected && <Badge tone="warn">protected</Badge>}
    </span>
  );
}

const score = (s: { score: number; passed: boolean }) => `${s.score.toFixed(2)} ${s.passed ? "✓" : "✗"}`;

function Cases({ c }: { c: ComparisonView }) {
  const cases = c.cases;
  return (
    <Card title="Where they differ most" description="Case by case on the locked held-out set, only when both sat the same exam with the same evaluator.">
      <p className={`text-sm ${cases.comparable ? "text-ink-2" : "text-warn"}`} data-testid="exam-sentence" data-comparable={cases.comparable ? "true" : "false"}>
        {cases.sentence}
      </p>
      {cases.comparable && cases.top.length > 0 && (
        <div className="mt-3">
          <ScrollX label="cases where they differ most">
            <table className="w-full text-sm" data-testid="compare-cases">
              <thead className="border-b border-line">
                <tr>
                  <th className={th} scope="col">Case</th>
                  <th className={`${th} hidden sm:table-cell`} scope="col">Family</th>
                  <th className={`${th} text-right`} scope="col">A</th>
                  <th className={`${th} text-right`} scope="col">B</th>
                  <th className={`${th} text-right`} scope="col">B − A</th>
                </tr>
              </thead>
              <tbody>
                {cases.top.map((r) => (
                  <tr key={r.caseId} className="border-b border-line last:border-0" data-testid="case-difference" data-case={r.caseId}>
                    <td className={td}>
                      <span className="font-mono text-xs break-words">{r.caseId}</span>
                      {/* On a phone the family rides under the case, leaving room for the scores. */}
                      <span className="mt-0.5 block sm:hidden">
                        <Family r={r} />
                      </span>
                    </td>
                    <td className={`${td} hidden sm:table-cell`}>
                      <Family r={r} />
                    </td>
                    <td className={`${td} text-right tabular-nums whitespace-nowrap`}>{score(r.a)}</td>
                    <td className={`${td} text-right tabular-nums whitespace-nowrap`}>{score(r.b)}</td>
                    <td className={`${td} text-right tabular-nums ${r.delta > 0 ? "text-pass" : r.delta < 0 ? "text-fail" : ""}`}>{signed(r.delta, 2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollX>
        </div>
      )}
    </Card>
  );
}

function Config({ c }: { c: ComparisonView }) {
  const { entries, changed, unchanged, missing } = c.config;
  return (
    <Card title="Config and resources" description="Keys of the declared algorithm config and of the resources' bytes that differ (secret-like values masked).">
      {missing.map((m) => (
        <p key={m} className="mb-2 text-sm text-warn">
          {m}
        </p>
      ))}
      <p className="text-sm text-ink-2" data-testid="config-summary">
        {changed === 0 ? `No key differs (${unchanged} the same).` : `${changed} key${changed === 1 ? "" : "s"} differ${changed === 1 ? "s" : ""}, ${unchanged} the same${entries.length < changed ? `; the first ${entries.length} are listed` : ""}.`}
      </p>
      {entries.length > 0 && (
        <div className="mt-3">
          <SideBySide label="config keys that differ" testId="compare-config" first="Key">
            {entries.map((e) => (
              <tr key={e.path} className="border-b border-line last:border-0" data-testid="config-entry" data-path={e.path} data-change={e.change}>
                <td className={`${td} font-mono text-xs break-all`}>{e.path}</td>
                <td className={`${td} font-mono text-xs break-all text-ink-2`}>{e.before ?? <span className="text-ink-3">absent</span>}</td>
                <td className={`${td} font-mono text-xs break-all text-ink-2`}>{e.after ?? <span className="text-ink-3">absent</span>}</td>
              </tr>
            ))}
          </SideBySide>
        </div>
      )}
    </Card>
  );
}

export function CompareView({ comparison: c }: { comparison: ComparisonView }) {
  return (
    <div className="space-y-4" data-testid="comparison">
      <Card title="Side by side">
        <div className="mb-4 grid gap-4 sm:grid-cols-2">
          <SideHead side={c.a} letter="A" />
          <SideHead side={c.b} letter="B" />
        </div>
        <Figures c={c} />
      </Card>
      <Card title="The seven checks" description="Each version's result now; rows where they differ are shaded.">
        <Checks c={c} />
      </Card>
      <Cases c={c} />
      <Config c={c} />
    </div>
  );
}
