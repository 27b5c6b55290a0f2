// Health of this Lightgate instance: which database, whether its migrations are all applied.
import { performance } from "node:perf_hooks";
import type { Database } from "@/server/db/client";
import { redactUrl } from "@/server/db/config";
import { readMigrationState } from "@/server/db/migration-state";
import { APP_VERSION } from "@/server/version";

export async function getSystemStatus({ db, target }: Database) {
  const t0 = performance.now();
  const rows = await db.$queryRawUnsafe<{ v: string }[]>(target.dialect === "sqlite" ? "SELECT sqlite_version() AS v" : "SHOW server_version");
  const latencyMs = performance.now() - t0;
  const serverVersion = target.dialect === "sqlite" ? `SQLite ${String(rows[0]?.v)}` : `PostgreSQL ${String((rows[0] as unknown as { server_version: string }).server_version)}`;
  // A read-only look at the history table (milliseconds), never the schema engine: this process has the file open.
  const m = await readMigrationState(target);
  return {
    ok: m.upToDate,
    version: APP_VERSION,
    database: {
      dialect: target.dialect,
      url: redactUrl(target),
      serverVersion,
      latencyMs,
      migrations: { onDisk: m.onDisk, applied: m.applied, pending: m.pending, failed: m.failed, upToDate: m.upToDate },
    },
    process: {
      uptimeSeconds: process.uptime(),
      rssMb: process.memoryUsage().rss / 1024 / 1024,
      node: process.version,
      pid: process.pid,
    },
    checkedAt: new Date(),
  };
}
