// What the agent sees of a ticket, as a dense feature vector (for linear policies) and a compact key
// (for tabular ones). The true intent of an ambiguous ticket stays hidden ("unknown") until the agent
// asks a clarifying question; the facts an answer needs are never shown, only what was gathered.
import { ATTRIBUTE_VALUES, INTENTS } from "./catalog";
import { ownValue } from "@/lib/own";

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

// Index tables resolved once: featurize runs for every step of every episode.
function table(prefix: string, values: readonly string[]): Record<string, number> {
  return Object.fromEntries(values.map((v) => [v, at(`${prefix}${v}`)]));
}
const AT = {
  intent: table("intent:", OBSERVED_INTENTS),
  urgency: table("urgency:", ATTRIBUTE_VALUES.urgency),
  expertise: table("expertise:", ATTRIBUTE_VALUES.expertise),
  ambiguity: table("ambiguity:", ATTRIBUTE_VALUES.ambiguity),
  tier: table("tier:", ATTRIBUTE_VALUES.tier),
  language: table("language:", ATTRIBUTE_VALUES.language),
  clarifiedBy: table("ambiguity:", ["medium", "high"].map((a) => `${a}*flag:clarified`)),
};
const CROSSED_AT = Object.fromEntries(OBSERVED_INTENTS.map((i) => [i, CROSSED_FLAGS.map((f) => at(`intent:${i}*flag:${f}`))]));
const SLA = at("sla_critical");
const PROGRESS = at("progress");
const FLAG_AT = FLAGS.map((f) => at(`flag:${f}`));

function lookup(tableOf: Record<string, number>, value: string, what: string): number {
  const i = ownValue(tableOf, value);
  if (i === undefined) throw new Error(`support-desk has no ${what} "${value}"`);
  return i;
}

export function featurize(v: DeskView): Float64Array {
  const x = new Float64Array(FEATURE_NAMES.length);
  x[0] = 1;
  x[lookup(AT.intent, v.intent, "intent")] = 1;
  x[lookup(AT.urgency, v.urgency, "urgency")] = 1;
  x[lookup(AT.expertise, v.expertise, "expertise")] = 1;
  x[lookup(AT.ambiguity, v.ambiguity, "ambiguity")] = 1;
  x[lookup(AT.tier, v.tier, "tier")] = 1;
  x[lookup(AT.language, v.language, "language")] = 1;
  if (v.slaCritical) x[SLA] = 1;
  for (let i = 0; i < FLAGS.length; i++) if (v.flags[FLAGS[i]!]) x[FLAG_AT[i]!] = 1;
  x[PROGRESS] = v.step / v.maxSteps;
  const crossed = CROSSED_AT[v.intent]!;
  for (let i = 0; i < CROSSED_FLAGS.length; i++) if (v.flags[CROSSED_FLAGS[i]!]) x[crossed[i]!] = 1;
  if (v.flags.clarified && v.ambiguity !== "low") x[lookup(AT.clarifiedBy, `${v.ambiguity}*flag:clarified`, "ambiguity")] = 1;
  return x;
}

/** Observed intent, ambiguity, the SLA rule and the progress flags: everything the best action depends on. */
export function stateKey(v: DeskView): string {
  let bits = "";
  for (const f of FLAGS) bits += v.flags[f] ? "1" : "0";
  return `${v.intent}|${v.ambiguity}|${v.slaCritical ? "sla" : "-"}|${bits}`;
}

// ——— the text variant (the hard desk): no intent feature, the customer's words instead ———

/** Hashed bag-of-words buckets of the customer's text (collisions are part of the difficulty). */
export const WORD_BUCKETS = 64;

function textNames(): string[] {
  const out = ["bias"];
  for (let b = 0; b < WORD_BUCKETS; b++) out.push(`word#${b}`);
  for (const attr of ["urgency", "expertise", "ambiguity", "tier", "language"] as const) {
    for (const v of ATTRIBUTE_VALUES[attr]) out.push(`${attr}:${v}`);
  }
  out.push("sla_critical");
  for (const f of FLAGS) out.push(`flag:${f}`);
  out.push("progress");
  // The only hand-made crosses that need no intent: the desk's ambiguity × clarified.
  out.push("ambiguity:medium*flag:clarified", "ambiguity:high*flag:clarified");
  return out;
}

export const TEXT_FEATURE_NAMES: readonly string[] = textNames();
const TEXT_INDEX = new Map(TEXT_FEATURE_NAMES.map((n, i) => [n, i]));
const textAt = (name: string) => TEXT_INDEX.get(name)!;

/** FNV-1a of a word, into a bucket. */
function bucketOf(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return (h >>> 0) % WORD_BUCKETS;
}

const wordCache = new Map<string, Int32Array>();
/** The bucket of every word of a text (cached: the desk's texts are templated). */
export function wordBuckets(text: string): Int32Array {
  let b = wordCache.get(text);
  if (!b) {
    if (wordCache.size > 20_000) wordCache.clear();
    b = Int32Array.from((text.toLowerCase().match(/[a-z']+/g) ?? []).map(bucketOf));
    wordCache.set(text, b);
  }
  return b;
}

export function featurizeText(v: DeskView, text: string): Float64Array {
  const x = new Float64Array(TEXT_FEATURE_NAMES.length);
  x[0] = 1;
  const words = wordBuckets(text);
  // Presence, not counts: a long ticket is not more of anything.
  for (const b of words) x[1 + b] = 1;
  for (const attr of ["urgency", "expertise", "ambiguity", "tier", "language"] as const) {
    const i = TEXT_INDEX.get(`${attr}:${v[attr]}`);
    if (i === undefined) throw new Error(`support-desk has no ${attr} "${v[attr]}"`);
    x[i] = 1;
  }
  if (v.slaCritical) x[textAt("sla_critical")] = 1;
  for (const f of FLAGS) if (v.flags[f]) x[textAt(`flag:${f}`)] = 1;
  x[textAt("progress")] = v.step / v.maxSteps;
  if (v.flags.clarified && v.ambiguity !== "low") x[textAt(`ambiguity:${v.ambiguity}*flag:clarified`)] = 1;
  return x;
}
