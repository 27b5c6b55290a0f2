// `npm run db:generate` (also postinstall): derive the PostgreSQL schema, then generate both clients.
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { POSTGRES_DIR, SOURCE_DIR, derivePostgresSchema } from "./derive-postgres-schema";

const root = process.cwd();
const pgDir = path.join(root, POSTGRES_DIR);
fs.rmSync(pgDir, { recursive: true, force: true });
fs.mkdirSync(pgDir, { recursive: true });
for (const [name, content] of derivePostgresSchema(root)) fs.writeFileSync(path.join(pgDir, name), content);

// `generate` needs no engine, but the CLI refuses to start without a path to one.
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/true", CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" };
const prisma = path.join(root, "node_modules/.bin/prisma");
for (const schema of [SOURCE_DIR, POSTGRES_DIR]) {
  execFileSync(prisma, ["generate", "--schema", schema], { env, stdio: "pipe" });
}
console.log("prisma: generated the sqlite and postgresql clients in server/db/generated/");
