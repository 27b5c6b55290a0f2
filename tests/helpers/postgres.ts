// Where the PostgreSQL suites get a server. CI points LIGHTGATE_TEST_PG_URL at a database it created
// for this run; on a laptop without a server the suites are skipped with a printed reason.
import pg from "pg";

export const PG_ADMIN_URL = process.env.LIGHTGATE_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export type PgAvailability = { ok: true } | { ok: false; reason: string };

export async function probePostgres(url = PG_ADMIN_URL): Promise<PgAvailability> {
  if (process.env.LIGHTGATE_TEST_PG === "0") return { ok: false, reason: "LIGHTGATE_TEST_PG=0" };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: `no PostgreSQL answered at ${url.replace(/:[^:@/]+@/, ":***@")} (${(e as Error).message})` };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Database names for one test run share a prefix, so a crashed run's leftovers are easy to find. */
export function testDatabaseName(label: string): string {
  const base = new URL(PG_ADMIN_URL).pathname.slice(1) || "postgres";
  const prefix = base.startsWith("lightgate_ci_") ? base : "lightgate_test";
  const safe = label.toLowerCase().replace(/[^a-z0-9]+/g, "_").slice(0, 20);
  return `${prefix}_${safe}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`.slice(0, 63);
}

export async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
