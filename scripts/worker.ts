// The trainer worker process: claims training runs from the database and executes them; PPO and
// Q-learning runs enqueue rollouts into the store, which runner processes (scripts/runner.ts) execute.
//   DATABASE_URL=… npx tsx scripts/worker.ts [--id trainer-1] [--lease-ms 15000] [--gates]
// --gates also steps open gate runs (the server process does too; leases keep one step per run at a time).
// Several workers may run against one database; a run whose worker dies is picked up again when its
// lease runs out and continues from its last checkpoint.
import { parseArgs } from "node:util";
import { getDatabase } from "../server/db/client";
import { storeFor } from "../server/store";
import { TrainerWorker } from "../server/training/worker";
import { stopSignal } from "../server/process/lifecycle";
import { orchestrateGates } from "../server/receipts/gate-queue";

const { values } = parseArgs({
  options: {
    id: { type: "string" },
    "lease-ms": { type: "string", default: process.env.LIGHTGATE_WORKER_LEASE_MS ?? "15000" },
    "poll-ms": { type: "string", default: "500" },
    quiet: { type: "boolean", default: false },
    gates: { type: "boolean", default: false },
  },
});

const database = await getDatabase();
const worker = new TrainerWorker(database, storeFor(database), {
  workerId: values.id,
  leaseMs: Number(values["lease-ms"]),
  pollMs: Number(values["poll-ms"]),
  log: values.quiet ? undefined : (line) => console.log(`[worker] ${line}`),
});
console.log(`trainer worker ${worker.workerId}: waiting for training runs${values.gates ? " (and gate runs)" : ""}`);
const signal = stopSignal(`trainer worker ${worker.workerId}`);
const gates = values.gates ? orchestrateGates(database, signal, { owner: `worker-${worker.workerId}`, log: values.quiet ? undefined : (line) => console.log(`[gates] ${line}`) }) : Promise.resolve();
await Promise.all([worker.run(signal), gates]);
await database.close();
process.exit(0);
