// Which run judged a candidate's evidence and with what, as the candidate page says it. A re-run judges with the
// evaluator in force at the re-run, so the page names the evaluator of the evidence — never stage 1's
// declaration in its place — and says when another one is in force now.
type EvaluatorLike = { id: string; version: string; digest: string };
export type JudgedByLike = { runId: string | null; ordinal: number | null; evaluator: EvaluatorLike | null } | null;

/** "judged by gate run 2 with evaluator X v2", or null when nothing names the evaluator. */
export function judgedBySentence(judged: JudgedByLike): string | null {
  if (!judged?.evaluator) return null;
  const run = judged.ordinal ? `gate run ${judged.ordinal}` : judged.runId ? `gate run ${judged.runId}` : "imported evidence";
  return `judged by ${run} with evaluator ${judged.evaluator.id} v${judged.evaluator.version}`;
}

/**
 * The evaluator line: the one the evidence was judged with, "(superseded)" when another is in force
 * (`inForce` is the `<id>@<version>#<digest>` key freshness compares with), and stage 1's declaration when it differs.
 */
export function evaluatorLine(judged: EvaluatorLike | null | undefined, declared: EvaluatorLike | null | undefined, inForce: string): string {
  const e = judged ?? declared;
  if (!e) return "—";
  const superseded = inForce === `${e.id}@${e.version}#${e.digest}` ? "" : " (superseded)";
  const differs = declared && (declared.id !== e.id || declared.version !== e.version) ? `; stage 1 declared ${declared.id} v${declared.version}` : "";
  return `${e.id} v${e.version}${superseded}${differs}`;
}
