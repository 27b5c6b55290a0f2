// Training-run fixtures: a real store behind real HTTP, runners pulling from it in this process, and the
// defaults of a small PPO run on the support desk.
import type { AuditActor } from "@/server/audit/audit-log";
import { Runner } from "@/server/runner/runner";
import type { StartRunInput } from "@/server/training/runs";

export const STARTER: AuditActor = { kind: "user", id: "u-trainer", name: "Tess Trainer", grants: [{ role: "trainer", agent: null }] };

export function ppoRun(over: Partial<StartRunInput> = {}): StartRunInput {
  return {
    agent: "support-desk",
    family: "ppo",
    config: { episodesPerUpdate: 12, toolFailureRate: 0.2, maxAttempts: 3 },
    seed: "run-seed-1",
    environment: "support-desk",
    distribution: "v2",
    updates: 3,
    checkpointEvery: 1,
    continual: false,
    heldOutCases: 60,
    retryBudget: 1000,
    ...over,
  };
}

/** `n` runners pulling from the server until `stop()`; resolves their stats. */
export function startRunners(url: string, apiKey: string, n: number, transport: "otlp" | "rest" = "otlp") {
  const controller = new AbortController();
  const runners = Array.from({ length: n }, (_, i) => new Runner({ url, apiKey, workerId: `test-runner-${i}`, transport, pollMs: 20 }));
  const done = Promise.all(runners.map((r) => r.run(controller.signal)));
  return {
    runners,
    async stop() {
      controller.abort();
      return done;
    },
  };
}
