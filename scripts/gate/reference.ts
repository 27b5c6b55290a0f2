// npm run gate:reference [-- --keep]
// Builds the four-candidate reference in a fresh SQLite database (evidence written into the store as
// rollouts, attempts and spans), runs the gate on each candidate and prints one JSON document on stdout.
// --keep leaves the database file in place and names it on stderr.
// --seed writes the reference into DATABASE_URL instead (times relative to now, for demos and e2e) and prints
// the seeded candidate ids; it migrates only when a migration is pending, so it runs beside a server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../server/db/client";
import { resolveDbTarget } from "../../server/db/config";
import { deployMigrations, MigrationBlockedError } from "../../server/db/migrate";
import { referenceReport, seedReferenceDemo } from "../../server/reference/reference-demo";

async function seedInto() {
  const target = resolveDbTarget(process.env.DATABASE_URL);
  await deployMigrations(target);
  const database = await openDatabase(target);
  try {
    const seeded = await seedReferenceDemo(database, { now: new Date() });
    process.stdout.write(`${JSON.stringify({ seeded })}\n`);
  } finally {
    await database.close();
  }
}

async function main() {
  if (process.argv.includes("--seed")) return seedInto();
  const keep = process.argv.includes("--keep");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-reference-"));
  const target = resolveDbTarget(`file:${path.join(dir, "reference.db")}`);
  await deployMigrations(target);
  const database = await openDatabase(target);
  try {
    const seeded = await seedReferenceDemo(database);
    const summary = await referenceReport(database, seeded);
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    await database.close();
    if (keep) console.error(`reference database kept at ${target.url}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(),
  (err: unknown) => {
    const said = err instanceof MigrationBlockedError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
    console.error(`gate:reference: ${said}`);
    process.exit(1);
  },
);
