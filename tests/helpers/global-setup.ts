// Runs once per `vitest run`: says up front whether the PostgreSQL suites will run.
import { probePostgres, PG_ADMIN_URL, type PgAvailability } from "./postgres";

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const pg = await probePostgres();
  provide("postgres", pg);
  if (pg.ok) console.log(`[lightgate tests] PostgreSQL suites run against ${PG_ADMIN_URL.replace(/:[^:@/]+@/, ":***@")}`);
  else console.log(`[lightgate tests] PostgreSQL suites SKIPPED: ${pg.reason}`);
}

declare module "vitest" {
  export interface ProvidedContext {
    postgres: PgAvailability;
  }
}
