// What the candidate page says about how the locked gate was scored and who served it (issue 23): a
// `runner_reward` evaluator trusts the runners' own reward spans, and the page says so plainly.
export type ServingFacts = {
  evaluator: string;
  scoring: "runner_reward" | "expected_output" | null;
  outputAttribute: string | null;
  /** null: no gate run here — the locked gate's results came with the receipt (imported evidence). */
  gateRunId: string | null;
  servers: { identity: string; name: string | null }[];
};

/** The sentence the page shows; `served by` names each identity (a key's name with its id). */
export function servingSentence(s: ServingFacts): string {
  const served =
    s.gateRunId === null ? "not recorded (no gate run here: the results came with the receipt)" : s.servers.length ? s.servers.map((x) => (x.name ? `${x.name} (${x.identity})` : x.identity)).join(", ") : "nobody yet";
  if (s.scoring === "runner_reward") return `Scores come from the runners' own reward spans; served by: ${served}. Evaluator ${s.evaluator} trusts the runner's reward.`;
  if (s.scoring === "expected_output") {
    return `Scores come from comparing what was served (span attribute ${s.outputAttribute}) with each case's expected output, not from what the runner says about itself; served by: ${served}. Evaluator ${s.evaluator}.`;
  }
  return `Evaluator ${s.evaluator} declares no scoring the gate can read; served by: ${served}.`;
}
