"use client";

// The decision at a glance (status, its sentence, what blocks it — stale evidence said once, with the
// re-run) and the freshness line (fresh until when and why; data cutoff, evaluator, parent, canary window).
import { AlertTriangle, CheckCircle2, Clock, History, ShieldAlert } from "lucide-react";
import { Time } from "@/components/ui/time";
import { signed } from "@/components/ui/format";
import { staleSentence } from "@/lib/approvals/availability";
import { evaluatorLine, judgedBySentence } from "@/lib/candidates/judged-by";
import { RerunGate } from "./rerun-gate";
import { STATUS_TONE, CheckStatusBadge } from "./verdict";
import type { CandidateDetail } from "./types";

const BANNER: Record<string, string> = {
  fail: "border-fail/40 bg-fail/10",
  warn: "border-warn/40 bg-warn/10",
  accent: "border-accent/40 bg-accent/10",
  pass: "border-pass/40 bg-pass/10",
  stale: "border-stale/40 bg-stale/10",
};

const ICONS = { QUARANTINED: ShieldAlert, STALE: History, "READY FOR APPROVAL": Clock, "PROMOTE TO BOUNDED CANARY": CheckCircle2, "PROMOTE TO DEFAULT": CheckCircle2, "ROLLED BACK": History } as const;

export function DecisionBanner({ detail }: { detail: CandidateDetail }) {
  const { summary, report } = detail;
  const status = summary.status;
  const tone = status ? STATUS_TONE[status] : "fail";
  const Icon = status ? ICONS[status] : ShieldAlert;
  const stale = report?.freshness.stale ?? [];
  const blocking = (report?.blocking ?? []).filter((b) => b.status !== "stale" && !(b.check === 7 && status === "READY FOR APPROVAL"));
  return (
    <div className={`flex items-start gap-3 rounded-lg border px-4 py-4 sm:gap-4 sm:px-5 ${BANNER[tone] ?? BANNER.fail}`} data-testid="decision" data-status={status ?? "NOT JUDGED"}>
      <Icon className={`mt-1 h-7 w-7 shrink-0 ${tone === "stale" ? "text-stale" : "text-ink"}`} aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className={`text-lg font-semibold tracking-tight ${tone === "stale" ? "text-stale" : "text-ink"}`} data-testid="verdict-text">
            {status ?? "NOT JUDGED"}
          </span>
          {summary.scoreGain !== null && <span className="text-sm text-ink-2">score vs parent {signed(summary.scoreGain)}</span>}
        </div>
        {status === "STALE" ? (
          <p className="mt-1 text-sm text-ink" data-testid="verdict-sentence">
            The gate&apos;s evidence predates a change: {staleSentence(stale.map((s) => ({ check: s.check, sentences: s.reasons.map((r) => r.sentence) })))}. Nothing stale can be
            approved; re-run the gate to judge this candidate against what is in force now.
          </p>
        ) : (
          <p className="mt-1 text-sm text-ink" data-testid="verdict-sentence">
            {summary.sentence}
          </p>
        )}
        {report && blocking.length > 0 && (
          <ul className="mt-2 space-y-1 text-sm" data-testid="blocking">
            {blocking.map((b) => {
              const check = (b.scope === "canary-stage" ? report.canaryStageChecks : report.checks)?.find((c) => c.id === b.check);
              return (
                <li key={`${b.scope}-${b.check}`} className="grid grid-cols-[5.5rem_1fr] items-baseline gap-x-2">
                  <span>
                    <CheckStatusBadge status={b.status} label={`${b.check} ${b.status}`} />
                  </span>
                  <span className="min-w-0 break-words text-ink-2">
                    <b className="text-ink">{check?.title}</b> — {check?.explanation}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
        {status && stale.length > 0 && <RerunGate detail={detail} />}
      </div>
    </div>
  );
}

const VERSION_NAMES: Record<string, string> = {
  evaluator: "evaluator",
  toolContracts: "tool contracts",
  taskDistribution: "task distribution",
  parent: "parent",
  retryPolicy: "retry policy",
  permissions: "permissions",
  destinations: "destinations",
  modelServer: "model server",
};

const ageLimit = (s: number | null) => (s === null ? "—" : s >= 86_400 ? `${+(s / 86_400).toFixed(1)} days` : `${+(s / 3600).toFixed(1)} h`);

/** "Fresh until …" with the limit that decides it, or since when it is stale — naming what judged the evidence. */
function FreshLine({ detail }: { detail: CandidateDetail }) {
  const stale = detail.report?.freshness.stale ?? [];
  const f = detail.freshUntil;
  const dependsOn = (f?.dependsOn ?? []).map((k) => VERSION_NAMES[k] ?? k).join(", ");
  const judged = judgedBySentence(detail.judgedBy);
  if (stale.length) {
    return (
      <span className="font-medium text-stale" data-testid="fresh-until">
        <AlertTriangle className="mr-1 inline h-3.5 w-3.5" aria-hidden="true" />
        Stale: {stale.length} check result{stale.length > 1 ? "s" : ""} (see above){judged ? ` — the evidence was ${judged}` : ""}
      </span>
    );
  }
  return (
    <span className="text-ink-2" data-testid="fresh-until">
      <span className="font-medium text-pass">Evidence fresh</span>
      {judged ? ` (${judged})` : ""}
      {f?.at ? (
        <>
          {" "}
          until <Time at={f.at} className="text-ink" /> — check {f.check}
          {f.scope === "canary-stage" ? " (canary stage)" : ""} was computed <Time at={f.computedAt} /> and the policy allows {ageLimit(f.maxAgeSeconds)}; sooner if the {dependsOn} change.
        </>
      ) : (
        <> while the {dependsOn} stay as they are (the policy sets no age limit).</>
      )}
    </span>
  );
}

export function FreshnessBanner({ detail }: { detail: CandidateDetail }) {
  const { report, stage1, stage2, stage3 } = detail;
  const stale = report?.freshness.stale ?? [];
  const canary = stage3?.canary?.window;
  const items: [string, React.ReactNode][] = [
    ["Data cutoff", stage2 ? <Time at={stage2.dataCutoff} /> : "no stage 2"],
    ["Gate ran", stage3 ? <Time at={stage3.computedAt} /> : "not yet"],
    ["Evaluator", evaluatorLine(detail.judgedBy?.evaluator, stage1?.evaluator, detail.versions.evaluator)],
    ["Parent", stage1 ? `${stage1.parent.resourceId} v${stage1.parent.version} (${parentStanding(detail)})` : "—"],
    [
      "Canary window",
      canary ? (
        <>
          <Time at={canary.start} /> → <Time at={canary.end} />
        </>
      ) : (
        "none"
      ),
    ],
  ];
  return (
    <div className={`rounded-lg border px-4 py-3 text-sm ${stale.length ? "border-stale/40 bg-stale/5" : "border-line bg-panel"}`} data-testid="freshness">
      <FreshLine detail={detail} />
      <dl className="mt-2 grid gap-x-6 gap-y-1 text-ink-2 sm:grid-cols-2 xl:grid-cols-3">
        {items.map(([k, v]) => (
          <div key={k} className="min-w-0">
            <dt className="inline text-ink-3">{k}: </dt>
            <dd className="inline break-words">{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Where the exact parent stands now — after a promotion the candidate itself replaced it, which is no warning. */
function parentStanding(detail: CandidateDetail): string {
  if (detail.parent.isApprovedDefault) return "approved default";
  if (detail.pointers.approvedDefault === detail.summary.digest) return "replaced by this candidate as approved default";
  return "not the approved default";
}
