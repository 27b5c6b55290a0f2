// Derives the PostgreSQL schema from the SQLite source schema: only provider and output change.
// Shared by scripts/db/generate.ts and the drift test, so both apply exactly the same rule.
import fs from "node:fs";
import path from "node:path";

export const SOURCE_DIR = "prisma/schema";
export const POSTGRES_DIR = "prisma/postgres/schema";

const HEADER = "// GENERATED from prisma/schema by scripts/db/generate.ts — do not edit.\n";

export function derivePostgresFile(name: string, content: string): string {
  if (name !== "schema.prisma") return HEADER + content;
  let out = content.replace(/provider(\s*)=(\s*)"sqlite"/, 'provider$1=$2"postgresql"');
  out = out.replace(/output(\s*)=(\s*)"\.\.\/\.\.\/server\/db\/generated\/sqlite"/, 'output$1=$2"../../../server/db/generated/postgres"');
  if (out === content || !out.includes('"postgresql"') || !out.includes("generated/postgres")) {
    throw new Error("prisma/schema/schema.prisma: could not find the sqlite provider or the generator output to rewrite");
  }
  return HEADER + out;
}

export function derivePostgresSchema(root = process.cwd()): Map<string, string> {
  const src = path.join(root, SOURCE_DIR);
  const files = new Map<string, string>();
  for (const name of fs.readdirSync(src).filter((f) => f.endsWith(".prisma")).sort()) {
    files.set(name, derivePostgresFile(name, fs.readFileSync(path.join(src, name), "utf8")));
  }
  return files;
}
