// The promotion timeline (Argo-Rollouts style): what happened to a candidate, step by step, grouped by cycle,
// with the steps still to come greyed. Pure: plain facts in (the receipt chain's links, the signed rollbacks and
// the guard's aborts, already named), steps out. The current step is read off the machine's state (state.ts) —
// never recomputed here — so the timeline and the badge cannot disagree.
import type { VersionSet } from "@/server/gate/versions";
import { evaluatorFromKey } from "@/server/gate/versions";
import type { CheckSaid, PointerName, Step } from "./facts";
import type { PromotionState, PromotionStateName } from "./state";

type Evaluator = { id: string; version: string; digest: string };

/** What produced a gate run's or canary stage's evidence (stage 3's `versions` and `producedBy`). */
export type ProducedWith = { versions: VersionSet; evaluator?: Evaluator | null; parent?: { resourceId: string; version: number } | null };

/** One thing on the record, in the order it happened. Names are display names (the reader resolves them). */
export type TimelineFact =
  | { kind: "declared"; by: string; at: string }
  | { kind: "gate-run"; at: string; runId: string | null; produced: ProducedWith; carriesCanaryStage: boolean }
  | { kind: "approval"; step: Step; decision: "approve" | "reject"; by: string; at: string; comment?: string }
  | { kind: "canary-stage"; at: string; outcome: "sealed" | "aborted"; reason?: string; produced: ProducedWith }
  | { kind: "rollback"; pointer: PointerName; by: string; at: string; reason: string; guard: boolean; to: string | null };

export type StepKind = "declared" | "gate-run" | "canary-approval" | "canary-stage" | "default-approval" | "promoted" | "rolled-back" | "aborted" | "superseded";
export type StepStatus = "done" | "current" | "failed" | "pending" | "skipped";

/** One "name value" the step was judged with; `full` is the untruncated value (a digest) for the title attribute. */
export type JudgedWith = { name: string; value: string; full?: string };

export type TimelineStep = {
  key: string;
  kind: StepKind;
  title: string;
  status: StepStatus;
  /** The current step failed (a quarantine, an abort, a rejection) or went stale: its tone, beside the text. */
  tone?: "failed" | "stale";
  who: string | null;
  at: string | null;
  judgedWith: JudgedWith[];
  evidence: { href: string; label: string } | null;
  sentence: string;
  /** STALE: what each stale check said before it went stale. */
  said?: CheckSaid[];
};

export type TimelineCycle = { number: number; title: string; latest: boolean; steps: TimelineStep[] };

export type Timeline = {
  /** The machine's state, as read (the current step is the one it names). */
  state: PromotionStateName;
  label: string;
  current: TimelineStep | null;
  cycles: TimelineCycle[];
};

export type TimelineInput = {
  candidateId: string;
  state: PromotionState;
  facts: readonly TimelineFact[];
  /** The checks standing in the way now (stale ones carry what they said): shown on the current step. */
  open?: readonly CheckSaid[];
  /** The later candidate's digest that became the approved default (the machine's `superseded`). */
  supersededBy?: string | null;
};

const short = (digest: string, n = 12) => (digest.length > n + 8 ? `${digest.slice(0, n + 7)}…` : digest);
const evaluatorName = (e: Evaluator) => `${e.id} v${e.version}`;

/** The versions a result was judged with, as the page names them. */
export function judgedWith(p: ProducedWith): JudgedWith[] {
  const e = p.evaluator ?? evaluatorFromKey(p.versions.evaluator);
  const tools = Object.entries(p.versions.toolContracts);
  return [
    { name: "evaluator", value: e ? evaluatorName(e) : p.versions.evaluator, full: p.versions.evaluator },
    ...(p.parent ? [{ name: "parent", value: `${p.parent.resourceId} v${p.parent.version}`, full: p.versions.parent }] : [{ name: "parent", value: short(p.versions.parent), full: p.versions.parent }]),
    { name: "tool contracts", value: tools.length ? tools.map(([t]) => t).join(", ") : "none", full: tools.map(([t, d]) => `${t} ${d}`).join("\n") },
    { name: "task distribution", value: p.versions.taskDistribution },
    { name: "retry policy", value: short(p.versions.retryPolicy), full: p.versions.retryPolicy },
    { name: "model server", value: p.versions.modelServer },
  ];
}

const TITLES: Record<StepKind, string> = {
  declared: "Declared",
  "gate-run": "Gate run",
  "canary-approval": "Canary approval",
  "canary-stage": "Canary stage",
  "default-approval": "Default approval",
  promoted: "Promoted to the approved default",
  "rolled-back": "Rolled back",
  aborted: "Canary aborted",
  superseded: "Superseded",
};

const EVIDENCE: Record<StepKind, { href: string; label: string }> = {
  declared: { href: "#receipt", label: "stage 1 on the receipt" },
  "gate-run": { href: "#checks", label: "the seven checks" },
  "canary-approval": { href: "#decisions", label: "the signed decision" },
  "canary-stage": { href: "#canary-stage", label: "the canary stage" },
  "default-approval": { href: "#decisions", label: "the signed decision" },
  promoted: { href: "#decisions", label: "the signed decision" },
  "rolled-back": { href: "/audit", label: "the audit log" },
  aborted: { href: "/audit", label: "the audit log" },
  superseded: { href: "/candidates", label: "the candidates" },
};

/** Where the page shows a step the candidate waits on (its evidence does not exist yet). */
const WAITING_ON: Partial<Record<StepKind, { href: string; label: string }>> = {
  "canary-approval": { href: "#approval", label: "the approval panel" },
  "default-approval": { href: "#approval", label: "the approval panel" },
  "canary-stage": { href: "#canary-stage", label: "the canary stage panel" },
  "gate-run": { href: "#checks", label: "the seven checks" },
};

const STANDS_ON_EVIDENCE: ReadonlySet<PromotionStateName> = new Set(["quarantined", "ready-for-canary", "canary-approved", "canary-running", "canary-sealed", "ready-for-default", "promoted"]);

const PENDING_SENTENCE: Partial<Record<StepKind, string>> = {
  "gate-run": "The gate judges the candidate against its exact parent (checks 1–6).",
  "canary-approval": "An authorized approver signs the bounded canary step.",
  "canary-stage": "The candidate serves inside its canary boundary; the stage seals after its settle window.",
  "default-approval": "Another authorized person signs the default step.",
  promoted: "The approved default moves to this candidate in the same transaction.",
};

function step(kind: StepKind, key: string, over: Partial<TimelineStep> = {}): TimelineStep {
  return { key, kind, title: TITLES[kind], status: "pending", who: null, at: null, judgedWith: [], evidence: null, sentence: PENDING_SENTENCE[kind] ?? "", ...over };
}

type Group = { facts: TimelineFact[]; opener: TimelineFact | null };

/** Cycles as the machine counts them: one starts at each gate run, re-run or rollback (state.ts currentCycle). */
function groupFacts(facts: readonly TimelineFact[]): Group[] {
  const groups: Group[] = [{ facts: [], opener: null }];
  for (const f of facts) {
    if (f.kind === "gate-run" || f.kind === "rollback") groups.push({ facts: [f], opener: f });
    else groups.at(-1)!.facts.push(f);
  }
  return groups;
}

const approvalStep = (s: Step): StepKind => (s === "canary" ? "canary-approval" : "default-approval");

/** A sealed (or aborted) canary stage; only the versions that differ from its gate run's are listed. */
function stageStep(f: Extract<TimelineFact, { kind: "canary-stage" }>, key: string, gateJudged: readonly JudgedWith[]): TimelineStep {
  const aborted = f.outcome === "aborted";
  // The same list twice is noise on a phone.
  const judged = judgedWith(f.produced).filter((j) => !gateJudged.some((g) => g.name === j.name && g.full === j.full && g.value === j.value));
  return step("canary-stage", key, {
    status: aborted ? "failed" : "done",
    title: aborted ? "Canary stage aborted" : "Canary stage sealed",
    at: f.at,
    judgedWith: judged,
    evidence: EVIDENCE["canary-stage"],
    sentence:
      (aborted ? `Aborted: ${f.reason ?? "the boundary was breached"}. The canary pointer goes back to the exact parent.` : "Served inside its boundary and sealed; checks 6–7 were judged again on it.") +
      (judged.length || !gateJudged.length ? "" : " Judged with the gate run's versions."),
  });
}

/** The steps one cycle went through (done / failed), and — for a gate-run cycle — the steps still ahead (pending). */
function cycleSteps(group: Group, n: number, runOrdinal: number, previous: { evaluator: string | null; judged: readonly JudgedWith[] }): TimelineStep[] {
  const previousEvaluator = previous.evaluator;
  const previousJudged = previous.judged;
  const steps: TimelineStep[] = [];
  const k = (kind: StepKind) => `${n}-${kind}`;
  const o = group.opener;
  if (o?.kind === "rollback") {
    const kind: StepKind = o.guard ? "aborted" : "rolled-back";
    const pointer = o.pointer === "canary" ? "canary pointer" : "approved default";
    // The guard moves the pointer the moment it sees the breach; the stage seals (with its stop) after: shown first.
    for (const f of group.facts) if (f.kind === "canary-stage") steps.push(stageStep(f, k("canary-stage"), previousJudged));
    steps.push(step(kind, k(kind), {
      status: "done",
      tone: "failed",
      title: o.guard ? "Canary aborted by the guard" : `Rolled back (${pointer})`,
      who: o.by,
      at: o.at,
      evidence: EVIDENCE[kind],
      sentence: `The ${pointer} moved off this candidate${o.to ? ` to ${o.to}` : ""}: ${o.reason}`,
    }));
    steps.push(step("gate-run", k("gate-run"), { title: "Gate re-run", sentence: "Re-run the gate to promote this candidate again." }));
    return steps;
  }
  for (const f of group.facts) if (f.kind === "declared") steps.push(step("declared", k("declared"), { status: "done", who: f.by, at: f.at, evidence: EVIDENCE.declared, sentence: "Stage 1 sealed before training: the candidate, its exact parent, the datasets and the evaluator are pinned." }));
  if (o?.kind !== "gate-run") {
    if (!steps.length) steps.push(step("declared", k("declared"), { sentence: "Stage 1 is sealed before training." }));
    steps.push(step("gate-run", k("gate-run")));
    return steps;
  }
  const judged = judgedWith(o.produced);
  const evaluator = judged[0]!.value;
  const newEvaluator = previousEvaluator && previousEvaluator !== evaluator ? ` — a new evaluator (run ${runOrdinal - 1} was judged with ${previousEvaluator})` : "";
  steps.push(step("gate-run", k("gate-run"), {
    status: "done",
    title: runOrdinal > 1 ? `Gate re-run (run ${runOrdinal})` : "Gate run",
    at: o.at,
    judgedWith: judged,
    evidence: EVIDENCE["gate-run"],
    sentence: `Judged with evaluator ${evaluator}${newEvaluator}.${o.carriesCanaryStage ? " The sealed canary stage was still fresh: it carries over, the candidate stays at the default step." : ""}`,
  }));
  const byKind = new Map<StepKind, TimelineStep>();
  for (const f of group.facts) {
    if (f.kind === "approval") {
      const kind = approvalStep(f.step);
      const rejected = f.decision === "reject";
      byKind.set(kind, step(kind, k(kind), {
        status: rejected ? "failed" : "done",
        title: `${TITLES[kind]}${rejected ? " rejected" : ""}`,
        who: f.by,
        at: f.at,
        evidence: EVIDENCE[kind],
        sentence: `${rejected ? "Rejected" : "Approved"} the ${f.step === "canary" ? "bounded canary" : "default"} step${f.comment ? ` — “${f.comment}”` : "."}`,
      }));
      if (f.step === "default" && !rejected) {
        byKind.set("promoted", step("promoted", k("promoted"), { status: "done", who: f.by, at: f.at, evidence: EVIDENCE.promoted, sentence: "The approved default moved to this candidate with the signed default approval." }));
      }
    } else if (f.kind === "canary-stage") {
      byKind.set("canary-stage", stageStep(f, k("canary-stage"), judged));
    }
  }
  const carried = o.carriesCanaryStage;
  for (const kind of ["canary-approval", "canary-stage", "default-approval", "promoted"] as const) {
    const got = byKind.get(kind);
    if (got) steps.push(got);
    else if (carried && (kind === "canary-approval" || kind === "canary-stage")) steps.push(step(kind, k(kind), { status: "skipped", sentence: "Carried over from the previous cycle (its evidence was still fresh at the re-run)." }));
    else steps.push(step(kind, k(kind)));
  }
  return steps;
}

/** Which step the machine's state names, in the latest cycle. */
function currentKind(state: PromotionState, steps: readonly TimelineStep[]): StepKind {
  const has = (kind: StepKind) => steps.some((s) => s.kind === kind && s.status !== "pending" && s.status !== "skipped");
  switch (state.name) {
    case "declared":
      return "declared";
    case "gating":
      return "gate-run";
    case "quarantined":
      return state.step === "default" && has("canary-stage") ? "canary-stage" : "gate-run";
    case "stale":
      return state.step === "default" ? "default-approval" : "canary-approval";
    case "ready-for-canary":
      return "canary-approval";
    case "canary-aborted":
      // The guard's abort is a rollback of the canary pointer: it opens a cycle of its own.
      return steps.some((s) => s.kind === "aborted") ? "aborted" : "canary-stage";
    case "canary-approved":
    case "canary-running":
      return "canary-stage";
    case "canary-sealed":
      return has("default-approval") ? "promoted" : "canary-stage";
    case "ready-for-default":
      return "default-approval";
    case "promoted":
      return "promoted";
    case "rolled-back":
      return steps.find((s) => s.kind === "aborted") ? "aborted" : "rolled-back";
    case "superseded":
      return "superseded";
  }
}

/** Marks the machine's step current in the latest cycle: what came before it done (or skipped), after it pending. */
function markCurrent(steps: TimelineStep[], state: PromotionState, open: readonly CheckSaid[], supersededBy: string | null | undefined): TimelineStep {
  const kind = currentKind(state, steps);
  if (kind === "superseded") steps.push(step("superseded", `${steps[0]?.key ?? "x"}-superseded`, { evidence: EVIDENCE.superseded, sentence: `A later candidate${supersededBy ? ` (${short(supersededBy)})` : ""} became the approved default.` }));
  let index = steps.findLastIndex((s) => s.kind === kind);
  if (index < 0) index = 0;
  // What stale checks said matters where the candidate still stands on that evidence (not once it was rolled back).
  const said = state.said.length ? state.said : STANDS_ON_EVIDENCE.has(state.name) ? open.filter((c) => c.status === "stale") : [];
  const failed = ["quarantined", "canary-aborted"].includes(state.name) || steps[index]!.status === "failed";
  const tone = said.length ? ("stale" as const) : failed ? ("failed" as const) : undefined;
  // A step that already happened keeps what it said (who rolled back and why) before the machine's next words.
  const happened = steps[index]!.status === "done" || steps[index]!.status === "failed";
  const staleSince = said.length && state.name !== "stale" ? " Its evidence has gone stale since: re-run the gate to judge it against what is in force now." : "";
  const sentence = (happened ? `${steps[index]!.sentence.replace(/([^.!?”])$/, "$1.")} ${state.next}` : state.next) + staleSince;
  const current: TimelineStep = { ...steps[index]!, status: "current", sentence, ...(tone ? { tone } : {}), ...(said.length ? { said: [...said] } : {}) };
  if (state.name === "gating") current.title = `${steps[index]!.title} — running`;
  if (!happened) current.evidence = WAITING_ON[kind] ?? EVIDENCE[kind];
  if (steps[index]!.status === "skipped") current.title = `${current.title} (carried over from the previous cycle)`;
  steps[index] = current;
  steps.forEach((s, i) => {
    if (i < index && s.status === "pending") steps[i] = { ...s, status: "skipped", sentence: "Not taken in this cycle." };
  });
  return current;
}

export function buildTimeline(input: TimelineInput): Timeline {
  const facts = [...input.facts].sort((a, b) => (a.kind === "declared" ? -1 : b.kind === "declared" ? 1 : a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const groups = groupFacts(facts);
  // The declaration's group stands on its own only before the first gate run.
  if (groups.length > 1 && groups[1]!.opener?.kind === "gate-run") groups[1]!.facts.unshift(...groups.shift()!.facts);
  let runs = 0;
  let previous: { evaluator: string | null; judged: readonly JudgedWith[] } = { evaluator: null, judged: [] };
  const cycles: TimelineCycle[] = groups.map((g, i) => {
    if (g.opener?.kind === "gate-run") runs += 1;
    const steps = cycleSteps(g, i + 1, runs, previous);
    if (g.opener?.kind === "gate-run") {
      const judged = steps.find((s) => s.kind === "gate-run")!.judgedWith;
      previous = { evaluator: judged[0]!.value, judged };
    }
    const latest = i === groups.length - 1;
    // Older cycles show what happened in them; only the latest keeps the steps still ahead.
    const shown = latest ? steps : steps.filter((s) => s.status !== "pending");
    const title = g.opener?.kind === "rollback" ? (g.opener.guard ? "aborted" : "rolled back") : g.opener?.kind === "gate-run" ? (runs > 1 ? `re-run ${runs}` : "gate run 1") : "declared";
    return { number: i + 1, title: `Cycle ${i + 1} · ${title}`, latest, steps: shown };
  });
  // A re-run queued or running opens the next cycle before its stage 3 is sealed.
  if (input.state.name === "gating" && cycles.at(-1)!.steps.some((s) => s.kind === "gate-run" && s.status === "done")) {
    const n = cycles.length + 1;
    const ahead = (["canary-approval", "canary-stage", "default-approval", "promoted"] as const).map((kind) => step(kind, `${n}-${kind}`));
    cycles.at(-1)!.latest = false;
    cycles.at(-1)!.steps = cycles.at(-1)!.steps.filter((s) => s.status !== "pending");
    cycles.push({ number: n, title: `Cycle ${n} · re-run ${runs + 1}`, latest: true, steps: [step("gate-run", `${n}-gate-run`, { title: `Gate re-run (run ${runs + 1})` }), ...ahead] });
  }
  const latest = cycles.at(-1)!;
  const current = markCurrent(latest.steps, input.state, input.open ?? [], input.supersededBy);
  return { state: input.state.name, label: input.state.label, current, cycles };
}
