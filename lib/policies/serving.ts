// How a published policy acts — part of the resource, so the gate, the canary and every reader judge the policy
// that will serve. Plain data, no imports: the trainers (server/trainers/policy.ts), the receipts' readers and the
// dashboard share it.

/** Its best action every time, or a draw from softmax(scores / temperature). */
export type Serving = { mode: "greedy" } | { mode: "sample"; temperature: number };
export const GREEDY: Serving = { mode: "greedy" };

const Q_KINDS = new Set(["q-tabular", "mlp-q"]);

/**
 * A policy's serving mode. One that names none (older resources, the untrained lineage roots) acts as such
 * policies always did: Q kinds on their best action, softmax kinds by sampling at temperature 1.
 */
export function servingOf(policy: { kind: string; serving?: Serving }): Serving {
  return policy.serving ?? (Q_KINDS.has(policy.kind) ? GREEDY : { mode: "sample", temperature: 1 });
}

/** What a reader sees: the mode, whether the resource says so itself, and what the policy reads. */
export type ServingView = Serving & { declared: boolean; reads: string };

type PolicyShape = { kind?: unknown; featureCount?: unknown; network?: { layers?: { units?: unknown }[] }; encoder?: { tokenizer?: unknown; vocab?: unknown[]; blocks?: unknown[]; dim?: unknown } };

/** What a policy decides from, in words: the ticket's text (and how it reads it) or the desk's features. */
export function policyReads(p: PolicyShape): string {
  const features = typeof p.featureCount === "number" ? `${p.featureCount} features` : "features";
  const hidden = (p.network?.layers ?? []).slice(0, -1).map((l) => l.units).join("-");
  switch (p.kind) {
    case "text-softmax":
      return `the customer's words — a ${p.encoder?.blocks?.length ?? "?"}-block transformer (width ${String(p.encoder?.dim)}) over ${p.encoder?.vocab?.length ?? 0} ${String(p.encoder?.tokenizer)} tokens — with plan, urgency and progress`;
    case "mlp-softmax":
    case "mlp-q":
      return `the desk's ${features} — an MLP ${hidden || "(no hidden layer)"}`;
    case "softmax-linear":
      return `the desk's ${features} — linear`;
    case "q-tabular":
      return "the desk's state key — a value table";
    default:
      return "—";
  }
}

/** The serving mode of a resources map's `lightgate_policy` entry; null when it holds no policy (a prompt, say). */
export function servingInResources(resources: unknown): ServingView | null {
  if (!resources || typeof resources !== "object") return null;
  for (const entry of Object.values(resources as Record<string, unknown>)) {
    const e = entry as { resource_type?: unknown; policy?: { kind?: unknown; serving?: Serving } } | null;
    if (e?.resource_type !== "lightgate_policy" || typeof e.policy?.kind !== "string") continue;
    return { ...servingOf({ kind: e.policy.kind, serving: e.policy.serving }), declared: e.policy.serving !== undefined, reads: policyReads(e.policy as PolicyShape) };
  }
  return null;
}

export function servingLabel(s: ServingView): string {
  const how = s.mode === "greedy" ? "greedy — its highest-scored action, every time" : `samples at temperature ${s.temperature}`;
  return s.declared ? how : `${how} (its resource names no serving mode)`;
}
