// Does an exact resources version load now? Read on the caller's client (inside an approval's or rollback's own
// transaction at commit), the stored bytes re-hashed (RFC 8785 + sha-256) and compared with the pinned digest:
// the column's digest alone would not catch bytes edited behind the store. Plain data for the gate core.
import type { Db, Tx } from "@/server/db/client";
import { digestOf } from "@/server/digest";
import type { ParentLoad } from "@/server/gate/parent-load";
import { pinnedDigest } from "@/server/store/resources";

export type ExactResource = { resourcesId: string; version: number; digest: string };

export async function resourceLoad(db: Db | Tx, ref: ExactResource): Promise<ParentLoad> {
  const row = await db.storeResourcesVersion.findUnique({ where: { resourcesId_version: { resourcesId: ref.resourcesId, version: ref.version } }, select: { resources: true } });
  if (!row) return { loadable: false, reason: `the store holds no version ${ref.version} of ${ref.resourcesId}` };
  let actual: string;
  try {
    actual = digestOf(JSON.parse(row.resources));
  } catch {
    return { loadable: false, reason: `the stored bytes of ${ref.resourcesId} v${ref.version} are not JSON` };
  }
  const pinned = pinnedDigest(ref.digest);
  if (actual !== pinned) return { loadable: false, reason: `the stored bytes of ${ref.resourcesId} v${ref.version} hash to ${actual}, not the pinned ${pinned}` };
  return { loadable: true, digest: pinned };
}

/** The sentence a refused approval or rollback gives when `ref` does not load. */
export const unloadableSentence = (what: string, ref: ExactResource, load: Extract<ParentLoad, { loadable: false }>) =>
  `${what} ${ref.resourcesId} v${ref.version} cannot be loaded (${load.reason}); consumers would be served a resource no one can load`;
