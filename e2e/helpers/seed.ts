// What specs need in the shared e2e server's database, made in the Playwright worker itself (as the page sweep's
// setup does) instead of a `npx tsx` process per spec: each of those loaded the whole server again, seconds of
// CPU apiece beside the server and the browser. The reference is seeded once per worker (seedReferenceDemo is
// idempotent, so a second call would only cost time).
import { createApiKey } from "@/server/auth/api-keys";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import type { ServiceRole } from "@/lib/auth/scopes";

export type SeededCandidate = { name: string; candidateId: string };

const references = new Map<string, Promise<SeededCandidate[]>>();

/** The reference's four candidates (A–D) and their parents in `url`, as `npm run gate:seed-reference` writes them. */
export function seedReference(url: string): Promise<SeededCandidate[]> {
  let seeded = references.get(url);
  if (!seeded) {
    seeded = (async () => {
      const database = await openDatabase(resolveDbTarget(url));
      try {
        return (await seedReferenceDemo(database, { now: new Date() })).map(({ name, candidateId }) => ({ name, candidateId }));
      } finally {
        await database.close();
      }
    })();
    references.set(url, seeded);
    seeded.catch(() => references.delete(url));
  }
  return seeded;
}

/** A new store API key for `url`'s database (the running server already migrated it). */
export async function makeApiKey(url: string, role: ServiceRole, name: string): Promise<string> {
  const database = await openDatabase(resolveDbTarget(url));
  try {
    return (await createApiKey(database.db, { name, role, createdBy: "e2e" })).token;
  } finally {
    await database.close();
  }
}
