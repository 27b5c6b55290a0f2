// People by name, not by id: the display name of each person or API key id (unknown ids stay as they are,
// e.g. an approver named only inside a sealed fixture receipt).
import type { Db, Tx } from "@/server/db/client";

export async function displayNames(db: Db | Tx, ids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  const names = new Map<string, string>();
  if (!wanted.length) return names;
  for (const u of await db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } })) names.set(u.id, u.name);
  for (const k of await db.apiKey.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } })) names.set(k.id, k.name);
  return names;
}

export const nameOf = (names: ReadonlyMap<string, string>, id: string) => names.get(id) ?? id;
