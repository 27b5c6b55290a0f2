// The migrations on disk, in Prisma's standard layout: prisma/migrations/<dialect>/<ts>_<name>/migration.sql.
// Read by the schema engine's driver (migrate.ts) and by the read-only state check (migration-state.ts).
import fs from "node:fs";
import path from "node:path";
import { sha256Hex } from "../digest";
import type { Dialect } from "./config";

// Spelled out as path.join(process.cwd(), "prisma", ...) so Next's file tracer stays inside prisma/.
export function migrationsDir(dialect: Dialect): string {
  return path.join(process.cwd(), "prisma", "migrations", dialect);
}

export type MigrationOnDisk = { name: string; file: string; sql: string | null };

/** Every migration directory, oldest first; `sql` is null when its migration.sql is missing. */
export function migrationsOnDisk(dialect: Dialect): MigrationOnDisk[] {
  const baseDir = migrationsDir(dialect);
  if (!fs.existsSync(baseDir)) return [];
  return fs
    .readdirSync(baseDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const file = path.join(baseDir, name, "migration.sql");
      return { name, file, sql: fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null };
    });
}

/**
 * Whether `checksum` (the `_prisma_migrations.checksum` column) was computed from `sql`: Prisma stores the
 * hex SHA-256 of the file and, like Prisma, the file checked out with the other line ends also matches.
 */
export function sqlMatchesChecksum(sql: string, checksum: string): boolean {
  const lf = sql.replaceAll("\r\n", "\n");
  const want = checksum.toLowerCase();
  return [sql, lf, lf.replaceAll("\n", "\r\n")].some((s) => sha256Hex(s) === want);
}
