// The runs list sorts in the database on the run's summary (latest and best validation reward, retry debt,
// updates, duration, name, start), runs without a value last in both directions, pages without overlap, and
// refuses a sort key it does not know with a 400 naming the field. The summary is what summary.ts computes from
// the metric rows, and the migration's backfill of older runs computes the same.
import fs from "node:fs";
import path from "node:path";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeTrpcClient } from "@/components/trpc/client";
import { refreshRunSummary } from "@/server/training/summary";
import { makePerson, signIn } from "../../helpers/auth";
import { callerAs } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { serveTrpc } from "../../helpers/trpc-server";

const T0 = Date.UTC(2026, 11, 1, 9);
const sec = (s: number) => new Date(T0 + s * 1000);

type Fixture = { id: string; name: string | null; validation: (number | null)[]; retries: number[]; startedAt: number | null; finishedAt: number | null };
// Created in this order (a is the oldest). Validation per update: null where the family records none. Names are
// lower case: the name sort is the database's collation (binary on SQLite, the locale's on PostgreSQL).
const RUNS: Fixture[] = [
  { id: "run-a", name: "baseline", validation: [0.3, 0.5, 0.4], retries: [1, 1, 1], startedAt: 0, finishedAt: 100 },
  { id: "run-b", name: null, validation: [0.6, 0.8], retries: [0, 0], startedAt: 10, finishedAt: null },
  { id: "run-c", name: "apo", validation: [null, null], retries: [40, 288], startedAt: 20, finishedAt: 500 },
  { id: "run-d", name: null, validation: [], retries: [], startedAt: null, finishedAt: null },
  { id: "run-e", name: "zeta", validation: [0.2, 0.1], retries: [2, 0], startedAt: 30, finishedAt: 60 },
  { id: "run-f", name: "alpha", validation: [null], retries: [5], startedAt: 40, finishedAt: null },
];

async function seed(database: TestDatabase) {
  for (const [i, r] of RUNS.entries()) {
    await database.db.trainingRun.create({
      data: {
        id: r.id, name: r.name, agent: "support-desk", family: "ppo", config: "{}", seed: "s", environment: "support-desk", distribution: "v2", parentResourcesId: "rs-p", parentVersion: 1,
        parentDigest: "sha256:" + "0".repeat(64), heldOutCases: 20, retryBudget: 100, codeRevision: "abcdef0", candidateEvery: 1, checkpointEvery: 1, updatesTotal: 10, updatesDone: r.retries.length,
        status: r.startedAt === null ? "queued" : r.finishedAt === null ? "running" : "finished", startedById: "u-test", createdAt: sec(i), startedAt: r.startedAt === null ? null : sec(r.startedAt), finishedAt: r.finishedAt === null ? null : sec(r.finishedAt),
      },
    });
    for (const [u, retries] of r.retries.entries()) {
      await database.db.trainingMetric.create({ data: { runId: r.id, update: u + 1, episodes: 8, meanReward: 0, heldOutReward: r.validation[u] ?? null, coverage: 1, retries, failed: 0, figures: "{}", at: sec((r.startedAt ?? 0) + 15 * (u + 1)) } });
    }
    await refreshRunSummary(database.db, r.id);
  }
}

describeEachDialect("runs list: server-side sort, nulls last", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "runs-sort");
    await seed(database);
  }, 60_000);
  afterAll(() => database?.drop());

  const ids = async (sort: "created" | "name" | "updates" | "latest_reward" | "best_reward" | "retry_debt" | "duration", dir: "asc" | "desc", page = { limit: 50, offset: 0 }) =>
    (await callerAs(database, "viewer").trainers.listRuns({ sort, dir, ...page })).items.map((r) => r.id);

  it("keeps each run's summary: latest and best validation, retry debt, runtime", async () => {
    const rows = new Map((await callerAs(database, "viewer").trainers.listRuns({})).items.map((r) => [r.id, r]));
    expect(rows.get("run-a")).toMatchObject({ latestValidation: 0.4, bestValidation: 0.5, retryDebt: 3, retryBudget: 100, runtimeSeconds: 100 });
    // Running: its runtime runs to its newest update (15 s after the start per update).
    expect(rows.get("run-b")).toMatchObject({ latestValidation: 0.8, bestValidation: 0.8, retryDebt: 0, runtimeSeconds: 30 });
    expect(rows.get("run-c")).toMatchObject({ latestValidation: null, bestValidation: null, retryDebt: 328, runtimeSeconds: 480 });
    expect(rows.get("run-d")).toMatchObject({ latestValidation: null, bestValidation: null, retryDebt: 0, runtimeSeconds: null });
  });

  it("sorts by a metric in either direction with the runs that lack it last, newest first among them", async () => {
    expect(await ids("best_reward", "desc")).toEqual(["run-b", "run-a", "run-e", "run-f", "run-d", "run-c"]);
    expect(await ids("best_reward", "asc")).toEqual(["run-e", "run-a", "run-b", "run-f", "run-d", "run-c"]);
    expect(await ids("latest_reward", "desc")).toEqual(["run-b", "run-a", "run-e", "run-f", "run-d", "run-c"]);
    expect(await ids("latest_reward", "asc")).toEqual(["run-e", "run-a", "run-b", "run-f", "run-d", "run-c"]);
    expect(await ids("duration", "desc")).toEqual(["run-c", "run-a", "run-e", "run-b", "run-f", "run-d"]);
    expect(await ids("duration", "asc")).toEqual(["run-f", "run-e", "run-b", "run-a", "run-c", "run-d"]); // e and b tie: newest first
    expect(await ids("name", "asc")).toEqual(["run-f", "run-c", "run-a", "run-e", "run-d", "run-b"]);
    expect(await ids("name", "desc")).toEqual(["run-e", "run-a", "run-c", "run-f", "run-d", "run-b"]);
  });

  it("sorts by retry debt, updates and start, ties newest first; pages never overlap", async () => {
    expect(await ids("retry_debt", "desc")).toEqual(["run-c", "run-f", "run-a", "run-e", "run-d", "run-b"]);
    expect(await ids("updates", "asc")).toEqual(["run-d", "run-f", "run-e", "run-c", "run-b", "run-a"]);
    expect(await ids("created", "desc")).toEqual(["run-f", "run-e", "run-d", "run-c", "run-b", "run-a"]);
    expect(await ids("created", "asc")).toEqual(["run-a", "run-b", "run-c", "run-d", "run-e", "run-f"]);
    const pages = [...(await ids("best_reward", "desc", { limit: 4, offset: 0 })), ...(await ids("best_reward", "desc", { limit: 4, offset: 4 }))];
    expect(pages).toEqual(await ids("best_reward", "desc"));
    // The default is newest first.
    expect((await callerAs(database, "viewer").trainers.listRuns({})).items.map((r) => r.id)).toEqual(await ids("created", "desc"));
  });

  it("the migration's backfill of runs recorded before the summary computes what summary.ts does, and gives stopped runs their status", async () => {
    const before = await database.db.trainingRun.findMany({ orderBy: { id: "asc" }, select: { id: true, latestValidation: true, bestValidation: true, retryDebt: true, runtimeSeconds: true } });
    await database.db.trainingRun.updateMany({ data: { latestValidation: null, bestValidation: null, retryDebt: 0, runtimeSeconds: null } });
    // A run a person stopped before "stopped" existed was recorded as finished, with the reason saying so.
    await database.db.trainingRun.update({ where: { id: "run-a" }, data: { statusReason: "stopped by Tess Trainer" } });
    const dir = path.join("prisma/migrations", dialect === "sqlite" ? "sqlite" : "postgresql");
    const folder = fs.readdirSync(dir).find((d) => d.endsWith("_run_summary"))!;
    const sql = fs.readFileSync(path.join(dir, folder, "migration.sql"), "utf8");
    const backfill = sql.slice(sql.indexOf("-- The summary of the runs recorded before it existed"));
    for (const statement of backfill.split(/;\s*\n/).map((s) => s.replace(/^--.*$/gm, "").trim()).filter(Boolean)) await database.db.$executeRawUnsafe(statement);
    expect(await database.db.trainingRun.findMany({ orderBy: { id: "asc" }, select: { id: true, latestValidation: true, bestValidation: true, retryDebt: true, runtimeSeconds: true } })).toEqual(before);
    const statuses = await database.db.trainingRun.findMany({ where: { id: { in: ["run-a", "run-c", "run-e"] } }, orderBy: { id: "asc" }, select: { status: true } });
    expect(statuses.map((r) => r.status)).toEqual(["stopped", "finished", "finished"]);
  });
});

it("a sort key or direction it does not know is refused with a 400 naming the field", async () => {
  const database = await createTestDatabase("sqlite", "runs-sort-http");
  const web = await serveTrpc(database);
  try {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const cookie = await signIn(database, person.email, person.password);
    const signedIn = makeTrpcClient(web.url, () => ({ cookie }));
    for (const [input, field] of [
      [{ sort: "best_reward; DROP TABLE training_runs" }, "sort"],
      [{ sort: "__proto__" }, "sort"],
      [{ sort: "created", dir: "sideways" }, "dir"],
    ] as const) {
      const error = await signedIn.trainers.listRuns.query(input as never).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TRPCClientError);
      const e = error as TRPCClientError<never>;
      expect((e.data as unknown as { httpStatus: number }).httpStatus).toBe(400);
      expect((e.data as unknown as { field: string }).field).toBe(field);
      expect(e.message).toMatch(new RegExp(`^${field}: must be one of `));
    }
    expect(await database.db.trainingRun.count()).toBe(0);
  } finally {
    await web.close();
    await database.drop();
  }
}, 60_000);
