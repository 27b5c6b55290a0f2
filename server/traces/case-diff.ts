// What differs between the exact parent's and the candidate's trace of one locked-gate case, compactly: a tool
// called on one side only (or a different number of times), a different final reward, a span family present on
// one side only, a different final output. Pure: spans in, differences and per-span marks out. Families and
// rewards are read as the gate reads them (spanFamily, rewardValueOf), outputs as the span detail shows them.
import { rewardValueOf, spanFamily } from "@/server/gate/evidence/spans";
import { spanIo } from "@/lib/spans/io";

export type DiffSpan = { key: string; name: string; attributes: Readonly<Record<string, unknown>> };
export type DiffSide = "parent" | "candidate";

export type TraceDifference =
  | { kind: "tool"; tool: string; parent: number; candidate: number }
  | { kind: "reward"; parent: number | null; candidate: number | null }
  | { kind: "family"; family: string; onlyOn: DiffSide }
  | { kind: "output"; parent: string | null; candidate: string | null };

export type TraceFacts = {
  /** Tool calls by tool, in order of first call. */
  tools: { tool: string; calls: number }[];
  families: string[];
  /** The last reward span's value in sequence order (Agent Lightning's final reward). */
  reward: number | null;
  /** The output of the last span that has one, tool calls and reward spans aside (at most OUTPUT_CHARS). */
  output: string | null;
};

export type SpanMark = { key: string; notes: string[] };
export type CaseDiff = { parent: TraceFacts; candidate: TraceFacts; differences: TraceDifference[]; marks: Record<DiffSide, SpanMark[]> };

export const OUTPUT_CHARS = 4000;
const TOOL = "tool.call:";
/** Rewards closer than this are the same reward (scores travel as floats through JSON). */
const REWARD_EPSILON = 1e-9;

const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** A span's output as one text: its single output value, or the output attributes as JSON. */
function outputText(attributes: Readonly<Record<string, unknown>>): string | null {
  const out = spanIo(attributes).output;
  if (!out) return null;
  const values = Object.values(out);
  return values.length === 1 ? text(values[0]) : text(out);
}

type Read = { facts: TraceFacts; fullOutput: string | null; familyOf: string[]; rewardKey: string | null; outputKey: string | null };

function read(spans: readonly DiffSpan[]): Read {
  const tools = new Map<string, number>();
  const families: string[] = [];
  const familyOf: string[] = [];
  let reward: number | null = null;
  let rewardKey: string | null = null;
  let output: string | null = null;
  let outputKey: string | null = null;
  for (const s of spans) {
    const family = spanFamily(s);
    familyOf.push(family);
    if (!families.includes(family)) families.push(family);
    if (family.startsWith(TOOL)) tools.set(family.slice(TOOL.length), (tools.get(family.slice(TOOL.length)) ?? 0) + 1);
    const value = rewardValueOf(s);
    if (value !== null) {
      reward = value;
      rewardKey = s.key;
      continue;
    }
    if (family.startsWith(TOOL)) continue;
    const said = outputText(s.attributes);
    if (said !== null) {
      output = said;
      outputKey = s.key;
    }
  }
  const facts = { tools: [...tools].map(([tool, calls]) => ({ tool, calls })), families, reward, output: output === null ? null : output.slice(0, OUTPUT_CHARS) };
  return { facts, fullOutput: output, familyOf, rewardKey, outputKey };
}

const sameReward = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) <= REWARD_EPSILON);
const other = (side: DiffSide): DiffSide => (side === "parent" ? "candidate" : "parent");

export function diffCaseTraces(parentSpans: readonly DiffSpan[], candidateSpans: readonly DiffSpan[]): CaseDiff {
  const spans = { parent: parentSpans, candidate: candidateSpans };
  const sides = { parent: read(parentSpans), candidate: read(candidateSpans) };
  const differences: TraceDifference[] = [];
  const calls = (side: DiffSide, tool: string) => sides[side].facts.tools.find((t) => t.tool === tool)?.calls ?? 0;
  const tools = [...new Set([...sides.parent.facts.tools, ...sides.candidate.facts.tools].map((t) => t.tool))];
  for (const tool of tools) {
    const parent = calls("parent", tool);
    const candidate = calls("candidate", tool);
    if (parent !== candidate) differences.push({ kind: "tool", tool, parent, candidate });
  }
  for (const side of ["parent", "candidate"] as const) {
    const theirs = new Set(sides[other(side)].facts.families);
    for (const family of sides[side].facts.families) if (!family.startsWith(TOOL) && !theirs.has(family)) differences.push({ kind: "family", family, onlyOn: side });
  }
  if (!sameReward(sides.parent.facts.reward, sides.candidate.facts.reward)) differences.push({ kind: "reward", parent: sides.parent.facts.reward, candidate: sides.candidate.facts.reward });
  if (sides.parent.fullOutput !== sides.candidate.fullOutput) differences.push({ kind: "output", parent: sides.parent.facts.output, candidate: sides.candidate.facts.output });

  const marks = (side: DiffSide): SpanMark[] => {
    const notes = new Map<string, string[]>();
    const note = (key: string | null, said: string) => {
      if (key !== null) notes.set(key, [...(notes.get(key) ?? []), said]);
    };
    const me = sides[side];
    spans[side].forEach((s, i) => {
      const family = me.familyOf[i]!;
      for (const d of differences) {
        if (d.kind === "tool" && family === TOOL + d.tool) note(s.key, d[other(side)] === 0 ? `only on the ${side}` : `called ${d[side]}× here, ${d[other(side)]}× on the ${other(side)}`);
        if (d.kind === "family" && d.onlyOn === side && family === d.family) note(s.key, `no ${d.family} span on the ${other(side)}`);
      }
    });
    if (differences.some((d) => d.kind === "reward")) note(me.rewardKey, "final reward differs");
    if (differences.some((d) => d.kind === "output")) note(me.outputKey, "final output differs");
    // In span order, each note once.
    return spans[side].flatMap((s) => (notes.has(s.key) ? [{ key: s.key, notes: [...new Set(notes.get(s.key))] }] : []));
  };
  return { parent: sides.parent.facts, candidate: sides.candidate.facts, differences, marks: { parent: marks("parent"), candidate: marks("candidate") } };
}
