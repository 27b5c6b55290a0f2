// A verifier: polls the gate for canary outcomes waiting for a verification, re-reads each one's record in
// the destination (checkDestinationOutcome) and posts what it found as a `destination` verification. It
// speaks to Lightgate only over HTTP, with its own `verifier` key — never the runner's that produced the
// outcome — and to the destination directly, as a help-desk auditor would.
import { environments as defaultRegistry, type EnvironmentRegistry } from "@/server/environments/registry";
import type { DestinationResolver } from "@/server/environments/support-desk/ticket-db";
import { StoreHttpError } from "@/server/runner/client";
import { GateVerifierClient } from "./client";
import { checkDestinationOutcome } from "./destination-check";

export type VerifierOptions = {
  url: string;
  apiKey: string;
  destinations: DestinationResolver;
  registry?: EnvironmentRegistry;
  pollMs?: number;
  log?: (line: string) => void;
};

export type VerifierStats = { matched: number; mismatched: number; already: number; skipped: number; retried: number; errors: number };

/** Outcomes this verifier cannot judge (or was refused for) are remembered, bounded, so each is tried once, not every poll. */
const SKIP_MEMORY = 10_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

export class Verifier {
  readonly stats: VerifierStats = { matched: 0, mismatched: 0, already: 0, skipped: 0, retried: 0, errors: 0 };
  readonly #client: GateVerifierClient;
  readonly #opts: Required<Omit<VerifierOptions, "url" | "apiKey">>;
  readonly #skipped = new Set<string>();

  constructor(opts: VerifierOptions) {
    this.#client = new GateVerifierClient(opts.url, opts.apiKey);
    this.#opts = { destinations: opts.destinations, registry: opts.registry ?? defaultRegistry, pollMs: opts.pollMs ?? 250, log: opts.log ?? (() => {}) };
  }

  /** One poll: verifies every pending outcome it can; returns how many verifications it recorded. */
  async runOnce(): Promise<number> {
    const page = await this.#client.pending();
    for (const problem of page.malformed) this.#opts.log(`a pending entry is malformed (${problem}); left alone`);
    let recorded = 0;
    for (const item of page.items) {
      if (this.#skipped.has(item.rollout_id)) continue;
      const result = await checkDestinationOutcome(item, this.#opts);
      if (result.kind === "skip") {
        this.stats.skipped++;
        this.#remember(item.rollout_id);
        this.#opts.log(`${item.rollout_id}: not mine to verify (${result.reason})`);
        continue;
      }
      if (result.kind === "retry") {
        this.stats.retried++;
        this.#opts.log(`${item.rollout_id}: will retry (${result.reason})`);
        continue;
      }
      try {
        const answer = await this.#client.post(result.body);
        if (answer === "already") this.stats.already++;
        else {
          recorded++;
          this.stats[result.body.matched ? "matched" : "mismatched"]++;
        }
        this.#opts.log(`${item.rollout_id} (${item.gate_run_id}/${item.case_id}): ${answer === "already" ? "already verified" : result.body.matched ? "matched" : "NOT matched"} — ${result.body.note ?? ""}`);
      } catch (e) {
        this.stats.errors++;
        // A refusal (4xx) will not change by asking again; a server or network failure might.
        const status = e instanceof StoreHttpError ? e.status : 0;
        if (status >= 400 && status < 500 && status !== 429) this.#remember(item.rollout_id);
        this.#opts.log(`${item.rollout_id}: the verification was not recorded: ${(e as Error).message}`);
      }
    }
    return recorded;
  }

  #remember(rolloutId: string) {
    if (this.#skipped.size >= SKIP_MEMORY) this.#skipped.clear();
    this.#skipped.add(rolloutId);
  }

  /** Polls until the signal aborts. */
  async run(signal: AbortSignal): Promise<VerifierStats> {
    while (!signal.aborted) {
      let recorded = 0;
      try {
        recorded = await this.runOnce();
      } catch (e) {
        this.stats.errors++;
        this.#opts.log(`gate unreachable: ${(e as Error).message}`);
      }
      // A poll that found work asks again at once: more outcomes may have finished meanwhile.
      if (recorded === 0) await sleep(this.#opts.pollMs, signal);
    }
    return this.stats;
  }
}
