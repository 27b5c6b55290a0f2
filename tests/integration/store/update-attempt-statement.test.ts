// PostgreSQL's one-statement update_attempt (server/store/update-attempt-statement.ts) against the careful program
// it stands in for (rollouts.ts updateAttempt): over every patch, target attempt, phase, worker, retry policy and
// viewer, two identical rollouts get the same patch at the same instant, one by the careful program and one the way
// the store does it (the statement, the careful program when the statement wrote nothing). Their rollouts, attempts,
// workers and answers (or refusals) must be the same, and the statement must have done the work where it applies.
import { afterAll, beforeAll, expect, it } from "vitest";
import { all } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { updateAttempt, type AttemptPatch } from "@/server/store/rollouts";
import { attemptRecordFromRow } from "@/server/store/rows";
import type { StoreViewer } from "@/server/store/scope";
import { ATTEMPT_STATUSES, type JsonObject, type RolloutConfig } from "@/server/store/types";
import { policyFreeRolloutStatus, updateAttemptAtOnce, updateAttemptAtOnceApplies } from "@/server/store/update-attempt-statement";
import { describeEachDialect } from "../../helpers/db";
import { createTestStore, type StoreFixture } from "../../helpers/store";

type Case = { patch: AttemptPatch; target: "latest" | "latest-by-id" | "older" | "unknown"; phase: string | null; worker: boolean; policy: Partial<RolloutConfig>; viewer: StoreViewer | undefined };

const POLICIES: Partial<RolloutConfig>[] = [{ max_attempts: 1, retry_condition: [] }, { max_attempts: 3, retry_condition: ["failed", "timeout", "unresponsive"] }];
const PATCHES: AttemptPatch[] = [
  ...ATTEMPT_STATUSES.map((status) => ({ status, last_heartbeat_time: 1234.5 })),
  { status: "succeeded" },
  { status: "failed", metadata: { note: "x" } },
  { last_heartbeat_time: 99 },
  { metadata: { k: [1, 2] } },
];
const RUNNER: StoreViewer = { identity: "runner", agents: null, untagged: true, gate: true, phases: null };
const OTHER: StoreViewer = { identity: "someone-else", agents: null, untagged: true, gate: true, phases: null };
type Side = { rid: string; worker: string | null; older: string; latest: string };

function cases(): Case[] {
  const out: Case[] = [];
  for (const patch of PATCHES)
    for (const target of ["latest", "latest-by-id", "older", "unknown"] as const)
      for (const policy of POLICIES) {
        // A worker or none on plain training work; the other phases and the viewers with a worker.
        for (const worker of [true, false]) out.push({ patch, target, phase: null, worker, policy, viewer: undefined });
        out.push({ patch, target, phase: "training", worker: true, policy, viewer: undefined });
        for (const viewer of [undefined, RUNNER, OTHER]) out.push({ patch, target, phase: "canary", worker: true, policy, viewer });
      }
  return out;
}

describeEachDialect(
  "update_attempt in one statement",
  (dialect) => {
    let f: StoreFixture;
    beforeAll(async () => {
      f = await createTestStore(dialect, "updatt");
    });
    afterAll(() => f?.drop());

    it("the statement applies exactly when the rollout's next status is the same under every retry policy", () => {
      expect(ATTEMPT_STATUSES.filter((s) => policyFreeRolloutStatus(s) !== null)).toEqual(["preparing", "running", "succeeded"]);
      expect(ATTEMPT_STATUSES.filter((s) => updateAttemptAtOnceApplies({ status: s }))).toEqual(["preparing", "running", "succeeded"]);
      expect(updateAttemptAtOnceApplies({ status: "succeeded", worker_id: "w" })).toBe(false);
      expect(updateAttemptAtOnceApplies({ last_heartbeat_time: 1 })).toBe(true);
      expect(updateAttemptAtOnceApplies({})).toBe(false);
    });

    it("leaves every rollout, attempt and worker as the careful program does, and answers the same", async () => {
      const sql = sqlRunnerFor(f.database);
      const all_ = cases();
      // One rollout per case and side, each dequeued once (by its own worker or none) and, for "older", started again.
      const made = await f.store.enqueueRollouts(
        all_.flatMap((c) => [0, 1].map(() => ({ input: "u", config: c.policy, metadata: c.phase ? { "lightgate.phase": c.phase } : ({} as JsonObject) }))),
      );
      // In queue order, one at a time, so each side claims its own rollout.
      const setups: [Side, Side][] = [];
      for (const [i, c] of all_.entries()) {
        const side = async (k: number): Promise<Side> => {
          const worker = c.worker ? `w${k}-${i}` : null;
          const [claim] = await f.store.dequeueRollouts({ limit: 1, worker_id: worker, viewer: RUNNER });
          expect(claim!.rollout_id).toBe(made[2 * i + k]!.rollout_id);
          const first = claim!.attempt.attempt_id;
          const again = c.target === "older" ? (await f.store.startAttempt(claim!.rollout_id, worker)).attempt.attempt_id : first;
          return { rid: claim!.rollout_id, worker, older: first, latest: again };
        };
        setups.push([await side(0), await side(1)]);
      }
      const now = 1_900_000_000.25;
      let quick = 0;
      for (const [i, c] of all_.entries()) {
        const [a, b] = setups[i]!;
        const aid = (s: Side) => ({ latest: "latest", "latest-by-id": s.latest, older: s.older, unknown: "at-nowhere" })[c.target];
        // The same patch twice (the second later): a status the rollout already has leaves it, and its end time, alone.
        for (const at of [now, now + 5]) {
          const careful = await outcome(() => sql.write((d) => updateAttempt(d, a.rid, aid(a), c.patch, at, undefined, c.viewer)), a);
          const viaStore = await outcome(async () => {
            const row = updateAttemptAtOnceApplies(c.patch) ? await sql.write(() => updateAttemptAtOnce(b.rid, aid(b), c.patch, at)) : null;
            if (row) quick++;
            const expectQuick = c.phase !== "canary" && c.target !== "unknown" && (c.patch.status === undefined || ["preparing", "running", "succeeded"].includes(c.patch.status));
            expect(row !== null, `statement applied: ${JSON.stringify(c)}`).toBe(expectQuick);
            return row ? attemptRecordFromRow(row) : sql.write((d) => updateAttempt(d, b.rid, aid(b), c.patch, at, undefined, c.viewer));
          }, b);
          const label = `${JSON.stringify(c)} at ${at}`;
          expect(viaStore, label).toEqual(careful);
          expect(await state(a), label).toEqual(await state(b));
        }
      }
      expect(quick).toBeGreaterThan(100);

      async function outcome(fn: () => Promise<unknown>, s: Side) {
        try {
          return { ok: normalize(await fn(), s) };
        } catch (e) {
          return { refused: `${(e as Error).name}: ${normalize((e as Error).message, s)}` };
        }
      }
      async function state(s: Side) {
        const [rollout] = await sql.read(() =>
          all(`SELECT status, end_time, queue_pos IS NULL AS unqueued, requeue_cause, attempt_count, latest_attempt_id FROM store_rollouts WHERE rollout_id = ?`, [s.rid]),
        );
        const attempts = await sql.read(() =>
          all(`SELECT sequence_id, attempt_id, status, end_time, worker_id, last_heartbeat_time, metadata, reason FROM store_attempts WHERE rollout_id = ? ORDER BY sequence_id`, [s.rid]),
        );
        const worker = s.worker
          ? await sql.read(() => all(`SELECT status, current_rollout_id, current_attempt_id, last_busy_time, last_idle_time FROM store_workers WHERE worker_id = ?`, [s.worker]))
          : [];
        return normalize({ rollout, attempts, worker }, s);
      }
    }, 180_000);
  },
  { postgresql: "always", sqlite: "never" },
);

/** The side's own ids replaced by names, so two sides compare. Times the dequeue stamped differ by side: kept only as set/unset. */
function normalize(v: unknown, s: Side): unknown {
  let text = JSON.stringify(v ?? null)
    .replaceAll(s.rid, "<rollout>")
    .replaceAll(s.latest, "<latest>")
    .replaceAll(s.older, "<older>");
  if (s.worker) text = text.replaceAll(s.worker, "<worker>");
  return JSON.parse(text, (k, x) => (["start_time", "last_busy_time", "last_idle_time"].includes(k) && typeof x === "number" && x < 1_900_000_000 ? "<earlier>" : x));
}
