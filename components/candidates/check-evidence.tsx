"use client";

// One check's deciding evidence, as something to follow: each renderer links to the rollouts, attempts and
// traces (or the cards) behind it; the raw JSON stays behind a toggle. Every check renders through here, so a
// check that gains evidence (check 4's paired interval, …) adds one branch.
import { useState } from "react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { percent, shortDigest, signed } from "@/components/ui/format";
import { JsonView } from "@/components/ui/json-view";
import type { CheckView } from "./types";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

const traceHref = (rolloutId: string, attemptId?: string | null) => `/traces?rollout=${encodeURIComponent(rolloutId)}${attemptId ? `&attempt=${encodeURIComponent(attemptId)}` : ""}`;

function RolloutLinks({ rows, testId }: { rows: { rolloutId: string; attemptId?: string | null; note: string }[]; testId: string }) {
  if (!rows.length) return null;
  return (
    <ul className="mt-1 space-y-0.5" data-testid={testId}>
      {rows.map((r) => (
        <li key={`${r.rolloutId}-${r.attemptId ?? ""}`} className="flex flex-wrap gap-x-2">
          <Link href={traceHref(r.rolloutId, r.attemptId)} className="font-mono text-xs text-accent hover:underline">
            {r.rolloutId}
            {r.attemptId ? ` · ${r.attemptId}` : ""}
          </Link>
          <span className="text-xs text-ink-2">{r.note}</span>
        </li>
      ))}
    </ul>
  );
}

function Pins({ e }: { e: Json }) {
  const pins = Object.entries(obj(e.pins));
  return (
    <table className="w-full text-sm">
      <tbody>
        {pins.map(([name, raw]) => {
          const p = obj(raw);
          const id = str(p.id) ?? "";
          const href = id.startsWith("ds-") ? `/datasets/${encodeURIComponent(id)}` : id.startsWith("rs-") ? `/resources?rid=${encodeURIComponent(id)}` : null;
          const ok = p.state === "resolved";
          return (
            <tr key={name} className="border-t border-line align-top first:border-0">
              <td className="py-1 pr-2 text-ink-2">{name}</td>
              <td className="py-1 pr-2 font-mono text-xs break-all">{href ? <Link href={href} className="text-accent hover:underline">{id}</Link> : id} {str(p.digest) && <span className="text-ink-3">{shortDigest(str(p.digest)!)}</span>}</td>
              <td className="py-1 text-right">
                <Badge tone={ok ? "pass" : "fail"}>{ok ? "resolved" : String(p.state ?? "not checked")}</Badge>
                {str(p.note) && <div className="text-xs text-fail">{str(p.note)}</div>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Coverage({ e }: { e: Json }) {
  const sample = arr(e.uncoveredSample).map((u) => obj(u));
  return (
    <div className="text-sm text-ink-2">
      {num(e.fullyCovered)} of {num(e.considered)} succeeded rollouts carry every declared family ({arr(e.expectedFamilies).join(", ")}).
      {sample.length > 0 && <div className="mt-1 text-xs text-ink-3">Rollouts missing a family (their traces):</div>}
      <RolloutLinks testId="evidence-rollouts" rows={sample.map((u) => ({ rolloutId: String(u.rolloutId), attemptId: str(u.attemptId), note: `missing ${arr(u.missing).join(", ")}` }))} />
    </div>
  );
}

function RetryDebt({ e }: { e: Json }) {
  const worst = arr(e.worst).map((w) => obj(w));
  return (
    <div className="text-sm text-ink-2">
      Debt {num(e.debt)} against a budget of {num(e.budget)}: {num(e.unexpectedRetries)} unexpected retries, {num(e.excessResamples)} resamples beyond plan, over {num(e.attempts)} attempts.
      {worst.length > 0 && <div className="mt-1 text-xs text-ink-3">Rollouts with the most debt (their attempts and traces):</div>}
      <RolloutLinks testId="evidence-rollouts" rows={worst.map((w) => ({ rolloutId: String(w.rolloutId), note: `debt ${num(w.debt)}` }))} />
    </div>
  );
}

function LockedGate({ e }: { e: Json }) {
  const gain = num(e.gain);
  return (
    <p className="text-sm text-ink-2">
      {num(e.cases) ?? "—"} locked held-out cases, judged by {str(e.evaluator) ?? "the pinned evaluator"}: candidate {num(e.candidateMean)?.toFixed(3) ?? "—"}, parent {str(e.parent)}{" "}
      {num(e.parentMean)?.toFixed(3) ?? "—"}, gain {gain === null ? "—" : signed(gain)} (minimum {num(e.minScoreGain) ?? 0}).{" "}
      <a href="#protected-cases" className="text-accent hover:underline">
        Case by case ↓
      </a>
    </p>
  );
}

function Protected({ e }: { e: Json }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      {arr(e.families).map((raw) => {
        const f = obj(raw);
        return (
          <Badge key={String(f.family)} tone={f.status === "held" ? "pass" : f.status === "regressed" ? "fail" : "unavailable"}>
            {String(f.family)}: {arr(f.regressions).length}/{num(f.maxRegressions)} regressions over {num(f.cases)} cases
          </Badge>
        );
      })}
      <a href="#protected-cases" className="text-accent hover:underline">
        The cases ↓
      </a>
    </div>
  );
}

function Canary({ e }: { e: Json }) {
  const findings = obj(e.findings);
  const tasks = num(e.tasks);
  return (
    <div className="space-y-1 text-sm text-ink-2">
      <p>
        {num(e.verified)} of {tasks} canary tasks verified{tasks ? ` (${percent((num(e.verified) ?? 0) / tasks)})` : ""} in {str(e.environment)} on {str(e.modelServer)}.{" "}
        <a href="#canary" className="text-accent hover:underline">
          Each outcome and how it was verified ↓
        </a>
      </p>
      {Object.entries(findings)
        .filter(([kind, ids]) => kind !== "verified" && arr(ids).length)
        .map(([kind, ids]) => (
          <p key={kind} className="text-xs">
            <Badge tone={kind === "weakly-verified" ? "warn" : "fail"}>{kind}</Badge> <span className="font-mono">{arr(ids).join(", ")}</span>
          </p>
        ))}
    </div>
  );
}

function RollbackApproval({ e }: { e: Json }) {
  const rb = obj(e.rollback);
  const d = obj(e.decision);
  return (
    <div className="space-y-1 text-sm text-ink-2">
      <p>
        Rollback: {rb.loaded ? "parent loaded" : "parent not loaded"}, {rb.routedBack ? "routing returned to it" : "routing did not return"} — {str(rb.detail)}.{" "}
        <a href="#rollback" className="text-accent hover:underline">
          Rollback test ↓
        </a>
      </p>
      <p>{d.decision ? `Decision: ${String(d.decision)} by ${String(d.actor)} (${arr(d.roles).join(", ")}).` : "No authorized decision on this step yet."}</p>
    </div>
  );
}

const RENDERERS: Record<number, (p: { e: Json }) => React.ReactNode> = { 1: Pins, 2: Coverage, 3: RetryDebt, 4: LockedGate, 5: Protected, 6: Canary, 7: RollbackApproval };

export function CheckEvidence({ check }: { check: CheckView }) {
  const [raw, setRaw] = useState(false);
  const Render = RENDERERS[check.id];
  return (
    <div className="space-y-2" data-testid={`check-evidence-${check.id}`}>
      {Render ? <Render e={obj(check.evidence)} /> : null}
      <button type="button" className="text-xs text-ink-3 underline-offset-2 hover:text-ink hover:underline" aria-expanded={raw} onClick={() => setRaw(!raw)}>
        {raw ? "Hide raw JSON" : "Raw JSON"}
      </button>
      {raw && <JsonView value={{ evidence: check.evidence, versions: check.versions }} collapsedAfter={30} />}
    </div>
  );
}
