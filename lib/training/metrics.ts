// The metrics a run records per update, by the key the compare page puts in its URL (`?metrics=validation,entropy`):
// the columns every run has (validation and training-batch reward, span coverage, retries, failed rollouts) and
// the family's own figures (PPO's diagnostics, a fitter's losses, …), named as the family names them.

export type MetricInfo = { label: string; hint: string; domain?: [number | "auto", number | "auto"] };

/** The metric columns of every update row (training_metrics), in the order the compare page offers them. */
export const METRIC_COLUMNS = ["validation", "batch_reward", "coverage", "retries", "failed"] as const;
export type MetricColumn = (typeof METRIC_COLUMNS)[number];

/** Figures a family may record that repeat a column (in-process families report them as figures too). */
export const FIGURES_REPEATING_COLUMNS: ReadonlySet<string> = new Set(["coverage", "retries", "failed", "episodes", "meanEpisodeReward", "meanReward"]);

/** What the compare page overlays when the URL names nothing. */
export const DEFAULT_METRICS: readonly string[] = ["validation"];

/** A metric key as the URL and the compare procedure accept it. */
export const METRIC_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** PPO's per-update diagnostics, as the run page and the compare page explain them. */
export const PPO_DIAGNOSTIC_INFO = new Map<string, MetricInfo>([
  ["approxKl", { label: "Approx. KL", hint: "mean((r − 1) − log r) between the acting and the updated policy" }],
  ["entropy", { label: "Entropy", hint: "of the action distribution (nats); falling = more decided" }],
  ["clipFraction", { label: "Clip fraction", hint: "share of samples the clipped surrogate cut off", domain: [0, "auto"] }],
  ["valueLoss", { label: "Value loss", hint: "½ (V(s) − target)², mean over minibatches" }],
  ["explainedVariance", { label: "Explained variance", hint: "1 − Var(return − V) / Var(return); 1 = perfect critic" }],
]);

const KNOWN = new Map<string, MetricInfo>([
  ["validation", { label: "Validation reward", hint: "the current policy on the trainer's own validation split (never the locked exam)" }],
  ["batch_reward", { label: "Training batch reward", hint: "mean episode reward of the update's own batch" }],
  ["coverage", { label: "Span coverage", hint: "succeeded rollouts with every expected span family", domain: [0, 1] }],
  ["retries", { label: "Retries per update", hint: "attempts beyond the first; summed over updates it is the retry debt" }],
  ["failed", { label: "Failed rollouts per update", hint: "rollouts whose every attempt failed" }],
  ...PPO_DIAGNOSTIC_INFO,
  ["trainLoss", { label: "Training loss", hint: "the fitter's loss on its training split" }],
  ["valLoss", { label: "Validation loss", hint: "the fitter's loss on its validation split (early stopping watches it)" }],
  ["valAccuracy", { label: "Validation accuracy", hint: "share of validation examples imitated exactly", domain: [0, 1] }],
  ["policyLoss", { label: "Policy loss", hint: "the clipped surrogate's loss, mean over minibatches" }],
  ["gradNorm", { label: "Gradient norm", hint: "L2 norm of the policy gradient before clipping" }],
  ["epsilon", { label: "Exploration ε", hint: "share of actions taken at random while collecting", domain: [0, 1] }],
  ["skippedIncomplete", { label: "Incomplete episodes skipped", hint: "rollouts left out of the update for a missing span or reward" }],
  ["meanEpisodeReward", { label: "Mean episode reward", hint: "mean reward of the update's own episodes" }],
]);

/** A family figure with no entry, in words: `rollbackProposals` → "Rollback proposals", `valueLoss2` → "Value loss 2". */
export function humanizeMetricKey(key: string): string {
  const words = key
    .replace(/_/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The label and hint of a metric key; a family figure with no entry reads as its name in words. */
export function metricInfo(key: string): MetricInfo {
  return KNOWN.get(key) ?? { label: humanizeMetricKey(key), hint: `${key}: a figure the family records on every update` };
}

/** The metrics named in the URL, known to be well-formed, without repeats, at most `max`. */
export function parseMetricList(text: string | null, max = 8): string[] {
  const keys = (text ?? "").split(",").map((k) => k.trim()).filter((k) => METRIC_KEY.test(k));
  const unique = [...new Set(keys)].slice(0, max);
  return unique.length ? unique : [...DEFAULT_METRICS];
}
