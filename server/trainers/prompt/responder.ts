// What prompt optimization asks of a language model, whichever answers: the OpenAI-compatible client
// (openai.ts) or the deterministic built-in responder (builtin.ts). Three requests, as Agent Lightning's
// APO makes them: act on a ticket under a prompt, critique a prompt from a batch of rollouts (the
// "textual gradient"), rewrite the prompt applying the critique.

/** One rollout as the critique sees it: the ticket's text, what the agent did and how it went. */
export type RolloutSummary = { ticket: string; actions: string[]; reward: number; success: boolean; protectedPassed: boolean | null; parseFailure: string | null };

export type ActRequest = {
  /** The prompt template (unrendered). */
  template: string;
  /** The rendered prompt: the system message a model gets. */
  system: string;
  /** The ticket as text at this step. */
  ticket: string;
  actions: readonly string[];
};

export type EditRequest = { prompt: string; temperature: number; /** per-request sampling seed */ seed: number };

export interface Responder {
  /** Which model judged (recorded in the run's config and receipt). */
  readonly id: string;
  /** The raw reply; the caller parses the action and reports a reply it cannot parse. */
  act(req: ActRequest): Promise<string>;
  critique(req: EditRequest & { rollouts: readonly RolloutSummary[] }): Promise<string>;
  rewrite(req: EditRequest & { critique: string }): Promise<string>;
}

/** The one action a reply names: the first whole-word match, or null when it names none. */
export function actionIn(reply: string, actions: readonly string[]): string | null {
  let best: { name: string; at: number } | null = null;
  for (const a of actions) {
    const m = new RegExp(`(^|[^a-z_])${a}($|[^a-z_])`).exec(reply);
    if (m && (!best || m.index < best.at)) best = { name: a, at: m.index };
  }
  return best?.name ?? null;
}

export function rolloutText(r: RolloutSummary): string {
  const verdict = r.protectedPassed === null ? "" : `; protected rule ${r.protectedPassed ? "kept" : "BROKEN"}`;
  return `Ticket:\n${r.ticket}\nAgent actions: ${r.actions.join(" → ") || "(none)"}${r.parseFailure ? ` (then an unparseable reply: ${r.parseFailure.slice(0, 80)})` : ""}\nReward ${r.reward.toFixed(2)}; outcome ${r.success ? "reached" : "NOT reached"}${verdict}`;
}
