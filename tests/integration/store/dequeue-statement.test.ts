// PostgreSQL's one-statement dequeue (server/store/dequeue-statement.ts) names each new attempt's reason in SQL; the
// rule is state-machine.ts's attemptReason. Every combination of sequence id, expected attempts and requeue cause
// is evaluated by the database and compared with the function.
import { afterAll, beforeAll, expect, it } from "vitest";
import { all } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { reasonSql } from "@/server/store/dequeue-statement";
import { attemptReason, type RequeueCause } from "@/server/store/state-machine";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

describeEachDialect(
  "the dequeue statement's attempt reasons",
  (dialect) => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect, "dqreason");
    });
    afterAll(() => database?.drop());

    it("equal attemptReason for every sequence id, expected attempts and cause", async () => {
      const causes: (RequeueCause | null)[] = [null, "retry_after_failed", "retry_after_timeout", "retry_after_unresponsive", "manual"];
      const cases = [1, 2, 3, 4, 7].flatMap((seq) => [1, 2, 3, 5].flatMap((expected) => causes.map((cause) => ({ seq, expected, cause }))));
      const sql = sqlRunnerFor(database);
      for (const c of cases) {
        const [row] = await sql.read(() => all<{ reason: string }>(`SELECT ${reasonSql("s", "e", "c")} AS reason FROM (SELECT CAST(? AS integer) AS s, CAST(? AS integer) AS e, CAST(? AS text) AS c) x`, [c.seq, c.expected, c.cause]));
        expect(row!.reason, JSON.stringify(c)).toBe(attemptReason(c.seq, c.expected, c.cause));
      }
    });
  },
  { postgresql: "always" },
);
