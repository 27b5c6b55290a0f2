// For the promotion journey (e2e/promotion-journey.spec.ts), run with DATABASE_URL of its server:
//   npx tsx e2e/helpers/promotion-seed.ts prepare      → the demo desk's rules and exam (its policy owner), a
//     runner and a verifier key, a strong desk candidate against its untrained exact parent, and its training
//     episodes enqueued for the runners; prints {"candidateId", "runnerKey", "verifierKey", "training": [ids], …}
//   npx tsx e2e/helpers/promotion-seed.ts gate <id>    → the trainer asks for the gate run; prints {"run": id}
import { createApiKey } from "@/server/auth/api-keys";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { requestGateRun } from "@/server/receipts/gate-queue";
import type { EpisodeInput } from "@/server/runner/episode-input";
import { storeFor } from "@/server/store";
import { DEMO_AGENT, ensureDeskGate } from "@/server/training/demo";
import { DESK_ALGORITHM, registerDeskCandidate } from "../../tests/helpers/desk-candidate";
import { parentPolicy, strongCandidatePolicy } from "../../tests/helpers/gate-rollouts";

async function main() {
  const [command, id] = process.argv.slice(2);
  const database = await openDatabase(resolveDbTarget(process.env.DATABASE_URL));
  const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);
  try {
    if (command === "prepare") {
      const exam = await ensureDeskGate(database);
      const store = storeFor(database);
      const datasets = { heldOut: exam.held_out.datasetId, canary: exam.canary.datasetId };
      const registered = await registerDeskCandidate({ database, store, agent: DEMO_AGENT, datasets }, { name: "journey", parent: parentPolicy(), candidate: await strongCandidatePolicy() });
      const inputs = Array.from({ length: 16 }, (_, i): EpisodeInput => ({ kind: "lightgate.episode", environment: "support-desk", distribution: "v2", task_seed: `train/journey/${i}`, options: { toolFailureRate: 0, timeoutShare: 0 }, policy_resource: "policy" }));
      const training = await store.enqueueRollouts(inputs.map((input) => ({ input, mode: "train", resources_id: registered.candidate.resourceId })));
      const runnerKey = (await createApiKey(database.db, { name: "journey runners", role: "runner", createdBy: "e2e" })).token;
      const verifierKey = (await createApiKey(database.db, { name: "journey verifier", role: "verifier", createdBy: "e2e" })).token;
      print({ ...registered, runnerKey, verifierKey, training: training.map((r) => r.rollout_id) });
    } else if (command === "gate" && id) {
      print({ run: (await requestGateRun(database, { candidateId: id, actor: DESK_ALGORITHM, deadlineSeconds: 120 })).id });
    } else throw new Error("usage: promotion-seed.ts prepare | gate <candidateId>");
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
