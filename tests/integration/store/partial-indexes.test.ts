// store_rollouts' partial indexes on PostgreSQL (prisma/schema/store.prisma) hold only the rows a query can ask
// them for: a rollout that left the queue, or names no agent, phase, receipt or resources, is not written into
// them. This holds the other half: every query on those columns still reaches its index, on a table shaped like
// a working store (many finished rollouts, a few queued), in the database's own plan (SQLite's indexes are whole;
// the same plans hold there).
import { afterAll, beforeAll, expect, it } from "vitest";
import { all, run, valuesSql } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { viewerCond, type StoreViewer } from "@/server/store/scope";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const COLUMNS = "INSERT INTO store_rollouts (rollout_id, input, start_time, status, config, created_pos, queue_pos, agent, phase, receipt_tag, resources_id)";

/**
 * 3,000 finished rollouts spread over agents, phases, receipts and resources; 300 queued, the last three of them
 * for an agent no other rollout names and three more for the rollback phase: a runner bound to either must not walk
 * the whole queue to find them.
 */
function rows(): unknown[][] {
  return Array.from({ length: 3_300 }, (_, i) => {
    const queued = i >= 3_000;
    const agent = i >= 3_297 ? "agent-rare" : i % 3 === 0 ? `agent-${i % 7}` : null;
    const phase = i >= 3_291 && i < 3_294 ? "rollback" : i % 5 === 0 ? "canary" : null;
    return [`ro-${i}`, "{}", i, queued ? "queuing" : "succeeded", "{}", i, queued ? i : null, agent, phase, i % 4 === 0 ? `rcpt-${i % 11}` : null, i % 2 === 0 ? `res-${i % 13}` : null];
  });
}

const bound = (v: Partial<StoreViewer>): StoreViewer => ({ identity: "k", agents: null, untagged: false, gate: true, phases: null, ...v });

describeEachDialect(
  "store_rollouts' partial indexes",
  (dialect) => {
    let database: TestDatabase;
    const plan = async (sql: string, params: unknown[]) => {
      const runner = sqlRunnerFor(database);
      const lines = await runner.read(() => all<Record<string, unknown>>(dialect === "postgresql" ? `EXPLAIN ${sql}` : `EXPLAIN QUERY PLAN ${sql}`, params));
      return lines.map((l) => String(dialect === "postgresql" ? l["QUERY PLAN"] : l.detail)).join("\n");
    };
    const claim = (viewer: StoreViewer) => {
      const only = viewerCond(viewer)!;
      return plan(`SELECT rollout_id FROM store_rollouts WHERE queue_pos IS NOT NULL AND ${only.sql} ORDER BY queue_pos LIMIT 4`, only.params);
    };

    beforeAll(async () => {
      database = await createTestDatabase(dialect, "partialidx");
      const runner = sqlRunnerFor(database);
      const table = rows();
      await runner.write(function* () {
        for (let i = 0; i < table.length; i += 500) {
          const batch = table.slice(i, i + 500);
          yield* run(valuesSql(COLUMNS, 11, batch.length), batch.flat());
        }
      });
      await runner.write(() => run("ANALYZE"));
    });
    afterAll(() => database?.drop());

    it("the queue's claim reads the queue's own index", async () => {
      expect(await plan("SELECT rollout_id FROM store_rollouts WHERE queue_pos IS NOT NULL ORDER BY queue_pos LIMIT 4", [])).toMatch(/store_rollouts_queue_pos_idx/);
    });

    it("a runner bound to agents claims through (agent, queue_pos); one bound to gate phases through (phase, queue_pos)", async () => {
      expect(await claim(bound({ agents: ["agent-rare"] }))).toMatch(/store_rollouts_agent_queue_pos_idx/);
      expect(await claim(bound({ phases: ["rollback"] }))).toMatch(/store_rollouts_phase_queue_pos_idx/);
    });

    it("a receipt's rollouts and a resources lineage's rollouts read their indexes", async () => {
      expect(await plan("SELECT rollout_id FROM store_rollouts WHERE receipt_tag = ?", ["rcpt-3"])).toMatch(/store_rollouts_receipt_tag_idx/);
      expect(await plan("SELECT rollout_id FROM store_rollouts WHERE resources_id IN (?, ?) ORDER BY start_time", ["res-1", "res-2"])).toMatch(/store_rollouts_resources_id_start_time_idx/);
    });
  },
  { postgresql: "always" },
);
