// One migration entry point for the app, the tests and CI.
//   npm run db:migrate              apply pending migrations to DATABASE_URL (default: the embedded SQLite file)
//   npm run db:migrate:dev -- NAME  write a new migration for both dialects from the schema change
//   npm run db:status               show applied and pending migrations
// Creating a PostgreSQL migration replays history on a temporary database, so it needs a server:
// LIGHTGATE_PG_DEV_URL (default postgresql://postgres@127.0.0.1:5432/postgres).
import { resolveDbTarget } from "../../server/db/config";
import { createMigration, deployMigrations } from "../../server/db/migrate";
import { readMigrationState } from "../../server/db/migration-state";

const [command = "deploy", name] = process.argv.slice(2);

async function main() {
  if (command === "deploy") {
    const target = resolveDbTarget(process.env.DATABASE_URL);
    const applied = await deployMigrations(target);
    console.log(applied.length ? `applied ${applied.length} migration(s) to ${target.dialect}: ${applied.join(", ")}` : `${target.dialect}: up to date`);
  } else if (command === "status") {
    const s = await readMigrationState(resolveDbTarget(process.env.DATABASE_URL));
    console.log(JSON.stringify(s, null, 2));
    if (!s.upToDate) process.exitCode = 1;
  } else if (command === "dev") {
    if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error("usage: npm run db:migrate:dev -- <name in snake_case>");
    const ts = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const targets = [
      resolveDbTarget(`file:./.tmp/migrate-dev-${process.pid}.db`),
      resolveDbTarget(process.env.LIGHTGATE_PG_DEV_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres"),
    ];
    for (const t of targets) {
      const dir = await createMigration(t, name, ts);
      console.log(dir ? `${t.dialect}: wrote ${dir}` : `${t.dialect}: no schema change`);
    }
  } else {
    throw new Error(`unknown command "${command}" (deploy | dev | status)`);
  }
}

main().then(
  () => process.exit(),
  (err: unknown) => {
    console.error(`migrate: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
