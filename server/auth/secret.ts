// The key that signs session cookies. LIGHTGATE_AUTH_SECRET wins; otherwise a random key is made on
// first use and kept in SystemSetting, so every process sharing the database agrees without anyone
// choosing (or committing) a default secret.
import { randomBytes } from "node:crypto";
import type { Db } from "@/server/db/client";

const KEY = "auth.secret";

export async function authSecret(db: Db, source: NodeJS.ProcessEnv = process.env): Promise<string> {
  const fromEnv = source.LIGHTGATE_AUTH_SECRET?.trim();
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error("LIGHTGATE_AUTH_SECRET must be at least 32 characters");
    return fromEnv;
  }
  const existing = await db.systemSetting.findUnique({ where: { key: KEY } });
  if (existing) return existing.value;
  // Two processes may race here: the loser's insert is skipped and both read the winner's key.
  await db.systemSetting.createMany({ data: [{ key: KEY, value: randomBytes(32).toString("base64url") }] }).catch(() => undefined);
  return (await db.systemSetting.findUniqueOrThrow({ where: { key: KEY } })).value;
}
