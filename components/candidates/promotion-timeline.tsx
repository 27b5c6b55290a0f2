// The promotion, step by step (Argo-Rollouts style): a rail of steps per cycle, the machine's current step
// highlighted, the steps still ahead greyed, older cycles folded. Status is said in words beside its colour and
// icon; long values (digests) are truncated with the full value in the title.
import Link from "next/link";
import { CheckCircle2, Circle, CircleDot, History, MinusCircle, XCircle, type LucideIcon } from "lucide-react";
import { Card } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import type { CandidateDetail } from "./types";

type Timeline = NonNullable<CandidateDetail["timeline"]>;
type Step = Timeline["cycles"][number]["steps"][number];

type Look = { icon: LucideIcon; word: string; dot: string; text: string };

function lookOf(step: Step): Look {
  if (step.status === "current") {
    if (step.tone === "stale") return { icon: History, word: "Now · stale", dot: "text-stale", text: "text-stale" };
    if (step.tone === "failed") return { icon: XCircle, word: "Now · failed", dot: "text-fail", text: "text-fail" };
    return { icon: CircleDot, word: "Now", dot: "text-accent", text: "text-accent" };
  }
  if (step.status === "done") return step.tone === "failed" ? { icon: XCircle, word: "Done", dot: "text-fail", text: "text-ink-2" } : { icon: CheckCircle2, word: "Done", dot: "text-pass", text: "text-pass" };
  if (step.status === "failed") return { icon: XCircle, word: "Failed", dot: "text-fail", text: "text-fail" };
  if (step.status === "skipped") return { icon: MinusCircle, word: "Skipped", dot: "text-ink-3", text: "text-ink-3" };
  return { icon: Circle, word: "Next", dot: "text-ink-3", text: "text-ink-3" };
}

const CURRENT_RING: Record<string, string> = { stale: "border-stale/50 bg-stale/10", failed: "border-fail/50 bg-fail/10", none: "border-accent/50 bg-accent/10" };

function StaleSaid({ said }: { said: NonNullable<Step["said"]> }) {
  return (
    <ul className="mt-1.5 space-y-1 text-xs" data-testid="timeline-said">
      {said.map((c) => (
        <li key={c.check} className="break-words">
          <b className="text-stale">check {c.check} went stale</b> — before, it {c.was === "pass" ? "passed" : c.was === "fail" ? "failed" : "was unavailable"}
          {c.said ? <>: “{c.said}”</> : ""}
          {c.staleBecause?.length ? <span className="text-ink-3"> (because {c.staleBecause.join("; ")})</span> : null}
        </li>
      ))}
    </ul>
  );
}

function StepItem({ step, last }: { step: Step; last: boolean }) {
  const look = lookOf(step);
  const current = step.status === "current";
  const Icon = look.icon;
  const muted = step.status === "pending" || step.status === "skipped";
  return (
    <li
      className="relative pb-4 pl-8 last:pb-0"
      data-testid={current ? "timeline-current" : "timeline-step"}
      data-kind={step.kind}
      data-status={step.status}
      aria-current={current ? "step" : undefined}
    >
      {!last && <span aria-hidden="true" className={`absolute top-6 bottom-0 left-[0.6875rem] w-px ${muted ? "border-l border-dashed border-line" : "bg-line"}`} />}
      <Icon aria-hidden="true" className={`absolute top-0.5 left-0 h-6 w-6 rounded-full bg-panel ${look.dot}`} />
      {/* Steps ahead are greyed by colour (ink-3 keeps AA contrast), the hollow icon and the dashed rail — never by opacity. */}
      <div className={current ? `rounded-md border px-3 py-2 ${CURRENT_RING[step.tone ?? "none"]}` : undefined}>
        <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <span className={`font-medium ${muted ? "text-ink-3" : "text-ink"}`} data-testid={current ? "timeline-current-title" : undefined}>
            {step.title}
          </span>
          <span className={`text-xs font-semibold uppercase tracking-wide ${look.text}`}>{look.word}</span>
        </div>
        {(step.who || step.at) && (
          <p className="text-xs text-ink-2">
            {step.who && <>by {step.who}</>}
            {step.who && step.at && " · "}
            {step.at && <Time at={step.at} />}
          </p>
        )}
        {step.sentence && (
          <p className={`mt-0.5 break-words text-sm ${muted ? "text-ink-3" : "text-ink-2"}`} data-testid={current ? "timeline-current-sentence" : undefined}>
            {step.sentence}
          </p>
        )}
        {step.said && step.said.length > 0 && <StaleSaid said={step.said} />}
        {step.judgedWith.length > 0 && (
          <dl className="mt-1.5 flex flex-wrap gap-1 text-xs" aria-label="judged with">
            {step.judgedWith.map((j) => (
              // Digests come shortened (the full value in the title); names wrap rather than lose their version.
              <div key={j.name} className="min-w-0 max-w-full rounded bg-panel-2 px-1.5 py-0.5 ring-1 ring-line ring-inset" title={j.full ?? j.value} data-testid={`judged-${j.name.replace(/ /g, "-")}`}>
                <dt className="inline text-ink-3">{j.name} </dt>
                <dd className="inline font-mono text-ink-2 [overflow-wrap:anywhere]">{j.value}</dd>
              </div>
            ))}
          </dl>
        )}
        {step.evidence && !muted && (
          <a href={step.evidence.href} className="mt-1 inline-block text-xs text-accent hover:underline">
            Evidence: {step.evidence.label}
          </a>
        )}
      </div>
    </li>
  );
}

function Steps({ steps }: { steps: Step[] }) {
  return (
    <ol className="mt-2 min-w-0">
      {steps.map((s, i) => (
        <StepItem key={s.key} step={s} last={i === steps.length - 1} />
      ))}
    </ol>
  );
}

export function PromotionTimeline({ detail }: { detail: CandidateDetail }) {
  const timeline = detail.timeline;
  if (!timeline) return null;
  const older = timeline.cycles.filter((c) => !c.latest);
  const latest = timeline.cycles.find((c) => c.latest);
  return (
    <Card
      id="timeline"
      title="Promotion timeline"
      description={`Declared → gate run → canary approval → canary stage → default approval → promoted. Now: ${timeline.label}.`}
      actions={
        <Link href={`/agents/${encodeURIComponent(detail.summary.agent)}#pointer-history`} className="text-xs text-accent hover:underline" data-testid="agent-history-link">
          {detail.summary.agent}&apos;s pointer history →
        </Link>
      }
    >
      <div className="space-y-3" data-testid="timeline" data-state={timeline.state}>
        {older.map((c) => (
          <details key={c.number} className="rounded-md border border-line px-3 py-2" data-testid="timeline-cycle" data-latest="false">
            <summary className="cursor-pointer text-sm font-medium text-ink-2">
              {c.title} <span className="text-xs text-ink-3">({c.steps.length} step{c.steps.length === 1 ? "" : "s"})</span>
            </summary>
            <Steps steps={c.steps} />
          </details>
        ))}
        {latest && (
          <section data-testid="timeline-cycle" data-latest="true" aria-label={latest.title}>
            {older.length > 0 && <h3 className="text-sm font-semibold text-ink">{latest.title}</h3>}
            <Steps steps={latest.steps} />
          </section>
        )}
      </div>
    </Card>
  );
}
