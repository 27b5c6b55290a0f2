// One worker process of `npm run bench:claims`: claims "jobs" through one engine and reports on stdout, one
// JSON line each, when it starts and ends one. A job's work is a sleep of the seconds it carries.
//   lease     — Lightgate's trainer worker (server/training/worker.ts): its own poll loop, claim and lease
//               renewal through the run lifecycle; only `execute` is replaced (a training run would be the work).
//   pg-boss   — pg-boss 10 (the last release for Node 20): `work` with one job at a time.
//   graphile  — graphile-worker 0.16 (the last release for Node 20): `run` with concurrency 1.
//   node --import tsx bench/claims/worker.ts ENGINE DATABASE_URL WORKER_ID
import { setTimeout as sleep } from "node:timers/promises";
import { openDatabase } from "../../server/db/client";
import { resolveDbTarget } from "../../server/db/config";
import { storeFor } from "../../server/store";
import { moveRunIfAllowed } from "../../server/training/lifecycle";
import { TrainerWorker } from "../../server/training/worker";
import { CLAIM_SETTINGS, type Engine, type JobData } from "./settings";

const [engine, url, id] = process.argv.slice(2) as [Engine, string, string];
const say = (ev: string, job: string) => process.stdout.write(`${JSON.stringify({ ev, job, worker: id, t: Date.now() })}\n`);

/** The trainer worker as it runs, with a run's training replaced by holding it for the job's seconds. */
class BenchWorker extends TrainerWorker {
  override async execute(runId: string): Promise<void> {
    const run = await this.database.db.trainingRun.findUniqueOrThrow({ where: { id: runId }, select: { name: true, config: true } });
    const job = JSON.parse(run.config) as JobData;
    say("start", run.name ?? runId);
    const until = Date.now() + job.seconds * 1000;
    // A training run renews its hold between updates; here an "update" lasts at most a second.
    while (Date.now() < until) {
      await sleep(Math.min(1_000, until - Date.now()));
      if (!(await this.holds(runId))) {
        say("lost", run.name ?? runId);
        return;
      }
    }
    await moveRunIfAllowed(this.database.db, runId, { kind: "finish", workerId: this.workerId, familyEnded: false });
    say("end", run.name ?? runId);
  }
}

async function lease() {
  const database = await openDatabase(resolveDbTarget(url));
  const worker = new BenchWorker(database, storeFor(database), { workerId: id, leaseMs: CLAIM_SETTINGS.leaseSeconds * 1000, pollMs: CLAIM_SETTINGS.pollSeconds * 1000 });
  say("ready", "");
  await worker.run(new AbortController().signal);
}

async function pgBoss() {
  const { default: PgBoss } = await import("pg-boss");
  const boss = new PgBoss({ connectionString: url, ...CLAIM_SETTINGS.pgBoss.constructor });
  boss.on("error", (e: Error) => process.stderr.write(`pg-boss: ${e.message}\n`));
  await boss.start();
  await boss.work<JobData>("bench", { batchSize: 1, pollingIntervalSeconds: CLAIM_SETTINGS.pollSeconds }, async ([job]) => {
    say("start", job!.data.key);
    await sleep(job!.data.seconds * 1000);
    say("end", job!.data.key);
  });
  say("ready", "");
}

async function graphile() {
  const { run } = await import("graphile-worker");
  await run({
    connectionString: url,
    concurrency: 1,
    pollInterval: CLAIM_SETTINGS.pollSeconds * 1000,
    noHandleSignals: true,
    taskList: {
      bench: async (payload) => {
        const job = payload as JobData;
        say("start", job.key);
        await sleep(job.seconds * 1000);
        say("end", job.key);
      },
    },
  });
  say("ready", "");
}

await (engine === "lease" ? lease() : engine === "pg-boss" ? pgBoss() : graphile());
