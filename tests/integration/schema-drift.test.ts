// The PostgreSQL schema is derived from the SQLite one, and each dialect's migrations must produce
// exactly its schema. Any hand edit or forgotten migration fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { derivePostgresSchema, POSTGRES_DIR } from "@/scripts/db/derive-postgres-schema";
import { resolveDbTarget } from "@/server/db/config";
import { pendingSchemaChange } from "@/server/db/migrate";
import { createTestDatabase, describeEachDialect } from "../helpers/db";

describe("schema drift", () => {
  it("the generated PostgreSQL schema equals what the derivation produces from prisma/schema", () => {
    const expected = derivePostgresSchema();
    const dir = path.resolve(POSTGRES_DIR);
    const actual = new Map(fs.readdirSync(dir).filter((f) => f.endsWith(".prisma")).map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]));
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, content] of expected) expect(actual.get(name), name).toBe(content);
  });

  it("the two dialects declare the same models and fields", () => {
    const modelsOf = (text: string) => [...text.matchAll(/^model (\w+) \{([^}]*)\}/gm)].map((m) => `${m[1]}:${m[2]!.replace(/\s+/g, " ").trim()}`).sort();
    const src = fs.readdirSync("prisma/schema").map((f) => fs.readFileSync(path.join("prisma/schema", f), "utf8")).join("\n");
    const pg = fs.readdirSync(POSTGRES_DIR).map((f) => fs.readFileSync(path.join(POSTGRES_DIR, f), "utf8")).join("\n");
    expect(modelsOf(pg)).toEqual(modelsOf(src));
  });
});

describeEachDialect("migrations match the schema", (dialect) => {
  it(`replaying prisma/migrations/${dialect} yields prisma schema exactly (no pending change)`, async () => {
    const db = await createTestDatabase(dialect, "drift");
    try {
      const sql = await pendingSchemaChange(resolveDbTarget(db.url));
      expect(sql, `run: npm run db:migrate:dev -- <name>\n${sql}`).toBe("");
    } finally {
      await db.drop();
    }
  });
});
