// Row counts of every table of the server's database, read directly (not through the server under test):
// the "nothing half-written" check compares them before and after each refused request (the refusal's own
// audit record aside, see COUNTED_ROWS).
import Database from "better-sqlite3";
import pg from "pg";
import { resolveDbTarget } from "@/server/db/config";

export type RowCounts = Record<string, number>;
export type RowCounter = { tables: string[]; counts(): Promise<RowCounts>; close(): Promise<void> };

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

// A refusal's own record is no write of the refused request: rows of the refusal log (server/audit/refusal-log.ts,
// `request.refused…`) and the checkpoints those rows happened to close are left out of the audit tables' counts.
const REFUSAL_RECORD = `action LIKE 'request.refused%'`;
const COUNTED_ROWS: Record<string, string> = {
  AuditEvent: `WHERE NOT (${REFUSAL_RECORD})`,
  AuditCheckpoint: `AS c WHERE NOT EXISTS (SELECT 1 FROM "AuditEvent" AS e WHERE e.seq = c.seq AND e.${REFUSAL_RECORD})`,
};

/** `SELECT <table> AS t, <rows> AS n` for one table, as counted for "nothing written" (`plain`: every row). */
export const countOf = (table: string, plain = false) => `SELECT '${table.replace(/'/g, "''")}' AS t, COUNT(*) AS n FROM ${quote(table)} ${plain ? "" : (COUNTED_ROWS[table] ?? "")}`;
// Plain counts for a database whose audit tables are not Lightgate's (the runner's self-test).
const unionOfCounts = (tables: string[], plain = false) => tables.map((t) => countOf(t, plain)).join(" UNION ALL ");

export async function openRowCounter(databaseUrl: string): Promise<RowCounter> {
  const target = resolveDbTarget(databaseUrl);
  if (target.dialect === "sqlite") {
    // Read-only, on its own connection: WAL lets it read beside the server's writer.
    const db = new Database(target.file, { readonly: true, fileMustExist: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all().map((r) => (r as { name: string }).name);
    const prepare = () => {
      try {
        return db.prepare(unionOfCounts(tables));
      } catch {
        return db.prepare(unionOfCounts(tables, true));
      }
    };
    const statement = prepare();
    return {
      tables,
      counts: async () => Object.fromEntries(statement.all().map((r) => [(r as { t: string }).t, Number((r as { n: number }).n)])),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  const { rows } = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const tables = rows.map((r) => r.table_name);
  let sql = unionOfCounts(tables);
  await client.query(sql).catch(() => (sql = unionOfCounts(tables, true)));
  return {
    tables,
    counts: async () => Object.fromEntries((await client.query<{ t: string; n: string }>(sql)).rows.map((r) => [r.t, Number(r.n)])),
    close: () => client.end(),
  };
}

/** The tables whose counts differ, with before → after. */
export function countChanges(before: RowCounts, after: RowCounts): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of new Set([...Object.keys(before), ...Object.keys(after)])) if (before[t] !== after[t]) out[t] = `${before[t] ?? 0} → ${after[t] ?? 0}`;
  return out;
}
