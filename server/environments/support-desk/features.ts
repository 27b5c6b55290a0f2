// What the agent sees of a ticket, as a dense feature vector (for linear policies) and a compact key
// (for tabular ones). The true intent of an ambiguous ticket stays hidden ("unknown") until the agent
// asks a clarifying question; the facts an answer needs are never shown, only what was gathered.
import { ATTRIBUTE_VALUES, INTENTS } from "./catalog";

export const OBSERVED_INTENTS = [...INTENTS, "unknown"] as const;
/** Progress flags, in feature and key order. */
export const FLAGS = ["clarified", "context", "info", "answered", "updated", "tool_failed"] as const;
export type Flag = (typeof FLAGS)[number];
/** Flags crossed with the observed intent: a linear policy needs these conjunctions to sequence steps per intent. */
const CROSSED_FLAGS = ["clarified", "context", "info", "answered", "updated"] as const;

export type DeskView = {
  intent: string;
  urgency: string;
  expertise: string;
  ambiguity: string;
  tier: string;
  language: string;
  slaCritical: boolean;
  flags: Record<Flag, boolean>;
  step: number;
  maxSteps: number;
};

function names(): string[] {
  const out = ["bias"];
  for (const i of OBSERVED_INTENTS) out.push(`intent:${i}`);
  for (const attr of ["urgency", "expertise", "ambiguity", "tier", "language"] as const) {
    for (const v of ATTRIBUTE_VALUES[attr]) out.push(`${attr}:${v}`);
  }
  out.push("sla_critical");
  for (const f of FLAGS) out.push(`flag:${f}`);
  out.push("progress");
  for (const i of OBSERVED_INTENTS) for (const f of CROSSED_FLAGS) out.push(`intent:${i}*flag:${f}`);
  out.push("ambiguity:medium*flag:clarified", "ambiguity:high*flag:clarified");
  return out;
}

export const FEATURE_NAMES: readonly string[] = names();
const INDEX = new Map(FEATURE_NAMES.map((n, i) => [n, i]));

function at(name: string): number {
  const i = INDEX.get(name);
  if (i === undefined) throw new Error(`support-desk has no feature "${name}"`);
  return i;
}

// Index lookups resolved once: featurize runs for every step of every episode.
const memo = new Map<string, number>();
function idx(name: string): number {
  let i = memo.get(name);
  if (i === undefined) memo.set(name, (i = at(name)));
  return i;
}
const SLA = at("sla_critical");
const PROGRESS = at("progress");
const FLAG_AT = FLAGS.map((f) => at(`flag:${f}`));

export function featurize(v: DeskView): Float64Array {
  const x = new Float64Array(FEATURE_NAMES.length);
  x[0] = 1;
  x[idx(`intent:${v.intent}`)] = 1;
  x[idx(`urgency:${v.urgency}`)] = 1;
  x[idx(`expertise:${v.expertise}`)] = 1;
  x[idx(`ambiguity:${v.ambiguity}`)] = 1;
  x[idx(`tier:${v.tier}`)] = 1;
  x[idx(`language:${v.language}`)] = 1;
  if (v.slaCritical) x[SLA] = 1;
  FLAGS.forEach((f, i) => {
    if (v.flags[f]) x[FLAG_AT[i]!] = 1;
  });
  x[PROGRESS] = v.step / v.maxSteps;
  for (const f of CROSSED_FLAGS) if (v.flags[f]) x[idx(`intent:${v.intent}*flag:${f}`)] = 1;
  if (v.flags.clarified && v.ambiguity !== "low") x[idx(`ambiguity:${v.ambiguity}*flag:clarified`)] = 1;
  return x;
}

/** Observed intent, ambiguity, the SLA rule and the progress flags: everything the best action depends on. */
export function stateKey(v: DeskView): string {
  let bits = "";
  for (const f of FLAGS) bits += v.flags[f] ? "1" : "0";
  return `${v.intent}|${v.ambiguity}|${v.slaCritical ? "sla" : "-"}|${bits}`;
}
