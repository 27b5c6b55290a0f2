// Check 4's policy floor as the candidate page states it beside the check: what the policy needs (locked
// cases, minimum gain at the interval's lower end) and what this candidate had. Read from the check's own
// evidence, so a stale check still says which floor it was judged against; evidence from before the floor
// existed says nothing.
type Json = Record<string, unknown>;

const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;
const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : null);

export function check4FloorSentence(evidence: Json): string | null {
  const floor = evidence.floor as Json | undefined;
  const minCases = num(floor?.minLockedCases);
  const minGain = num(floor?.minScoreGain);
  if (minCases === null || minGain === null) return null;
  const paired = evidence.pairedTest as { n?: unknown; interval?: unknown } | null | undefined;
  const n = num(paired?.n) ?? num(evidence.cases);
  const lower = Array.isArray(paired?.interval) ? num(paired.interval[0]) : null;
  const had = n === null ? "no complete locked set" : `n = ${n}${lower === null ? "" : `, lower end ${signed(lower)}`}`;
  return `Policy floor: needs ≥ ${minCases} locked cases and a gain above ${signed(minGain)} at the interval's lower end; had ${had}.`;
}
