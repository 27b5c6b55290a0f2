// The policy owner's registries area: every kind of versioned record the gate judges against, in the order
// the page lists them, with what each one is for. The nine registry kinds (server/receipts/registries.ts)
// plus the two kinds of published exam (server/gate-api/datasets.ts); server/policy/kinds.ts checks that
// this list and those stay the same.
export const AREA_KINDS = [
  "evaluator",
  "tool_contract",
  "protected_family",
  "promotion_policy",
  "canary_boundary",
  "retry_policy",
  "task_distribution",
  "model_server",
  "destination",
  "held_out",
  "canary",
] as const;
export type AreaKind = (typeof AREA_KINDS)[number];
export const DATASET_AREA_KINDS = ["held_out", "canary"] as const satisfies readonly AreaKind[];
export type DatasetAreaKind = (typeof DATASET_AREA_KINDS)[number];

export const isDatasetKind = (kind: AreaKind): kind is DatasetAreaKind => (DATASET_AREA_KINDS as readonly string[]).includes(kind);
export const isAreaKind = (kind: string): kind is AreaKind => (AREA_KINDS as readonly string[]).includes(kind);

export const KIND_INFO: Record<AreaKind, { label: string; plural: string; about: string }> = {
  evaluator: { label: "Evaluator", plural: "Evaluators", about: "How the locked gate scores a case. Receipts pin it by id@version; a new version makes checks 1, 4 and 5 stale." },
  tool_contract: { label: "Tool contract", plural: "Tool contracts", about: "What each tool may do (side effects, destructive or not). A changed contract makes checks 2 and 6 stale; a new tool is a new permission." },
  protected_family: { label: "Protected family", plural: "Protected families", about: "Case families that must not regress (check 5), with the regressions tolerated." },
  promotion_policy: { label: "Promotion policy", plural: "Promotion policy", about: "The thresholds the seven checks apply: check 4's floor (at least 20 locked cases, a minimum gain of at least 0.02), tolerances, evidence age, stop conditions." },
  canary_boundary: { label: "Canary boundary", plural: "Canary boundaries", about: "What a bounded canary may do: tasks, wall time, tools, cost, side effects (check 6)." },
  retry_policy: { label: "Retry policy", plural: "Retry policies", about: "The rollout config runners retry by. A new version makes checks 3 and 6 stale." },
  task_distribution: { label: "Task distribution", plural: "Task distributions", about: "The tasks the agent serves, pinned by name@version. A new version makes checks 2, 4 and 5 stale." },
  model_server: { label: "Model server", plural: "Model servers", about: "Where the candidate runs and its token pricing. A new version makes checks 6 and 7 stale." },
  destination: { label: "Destination", plural: "Destinations", about: "Systems the agent may change. A new destination is not covered by earlier canary evidence (checks 6, 7)." },
  held_out: { label: "Held-out set", plural: "Held-out sets", about: "The locked exam the gate scores candidate and parent on, case by case. Receipts pin one version; runs started later pin the newest." },
  canary: { label: "Canary set", plural: "Canary sets", about: "The tasks a bounded canary runs. Receipts pin one version; runs started later pin the newest." },
};

/** The page of one record: `/registries/<kind>/<name>`, with the two versions compared in the query. */
export function registryHref(kind: AreaKind, name: string, query: { agent?: string; a?: string; b?: string } = {}): string {
  const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
  const s = qs.toString();
  return `/registries/${kind}/${encodeURIComponent(name)}${s ? `?${s}` : ""}`;
}
