// Who may write under a resources id that belongs to a release lineage. A pointer or a candidate of agent X
// naming the id makes every new version under it a decision about X's releases: it needs `store:enqueue`
// for X (`actorCan`, so a key bound to other agents is refused and an unbound algorithm key keeps today's
// reach). Filling a version a pointer or candidate names but the store does not hold is refused to
// everyone unless the bytes are exactly the named ones: otherwise "version 1" of the approved default's
// missing id could be anyone's content. Every refusal is recorded in the audit log.
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import { actorCan, type Actor } from "@/server/auth/actor";
import type { Database } from "@/server/db/client";
import type { LightningStore } from "../index";
import type { PendingResourcesWrite } from "../lineage";
import type { NamedResources, ResourcesUpdate } from "../types";
import { HttpError } from "./io";

/** Why a write under a lineage is refused; `agent` names the lineage (null: the gate's own pins). */
export type ResourcesWriteRefusal = { agent: string | null; reason: string };

const POINTER_NAMES: Record<string, string> = { approved_default: "approved default", canary: "canary", latest_candidate: "latest candidate", candidate: "candidate" };

/** The decision alone (pure): null when `actor` may store `write`. */
export function lineageRefusal(actor: Actor, write: PendingResourcesWrite): ResourcesWriteRefusal | null {
  for (const claim of write.unstoredClaims) {
    if (claim.version === write.version && claim.digest === write.digest && actorCan(actor, "store:enqueue", claim.agent)) continue;
    const what = claim.by === "candidate" ? `candidate ${claim.candidateId}` : `${POINTER_NAMES[claim.by]} pointer`;
    return {
      agent: claim.agent,
      reason:
        `${claim.agent}'s ${what} names ${write.resourcesId} version ${claim.version} (${claim.digest}), which the store does not hold; ` +
        `this write would store version ${write.version} with ${write.digest}. Only those exact bytes may fill it.`,
    };
  }
  const foreign = write.agents.find((agent) => !actorCan(actor, "store:enqueue", agent));
  if (foreign === undefined) return null;
  return { agent: foreign, reason: `${write.resourcesId} is in agent ${foreign}'s release lineage; ${actor.name} lacks the "store:enqueue" scope for agent "${foreign}"` };
}

/** Records a refused write in its own transaction; never throws (a failed record must not turn the refusal into anything else). */
export async function recordResourcesRefusal(database: Database, actor: Actor, resourcesId: string, refusal: ResourcesWriteRefusal, wrote?: { version: number; digest: string }) {
  try {
    await database.transaction(
      (tx) => appendAudit(tx, { actor, action: "store.resources.write.refused", target: { type: "resources", id: resourcesId.slice(0, 512) }, after: { agent: refusal.agent, reason: refusal.reason, ...wrote } }),
      { locks: [AUDIT_LOCK] },
    );
  } catch (e) {
    console.error(`audit: could not record a refused resources write (${resourcesId}):`, (e as Error)?.message ?? e);
  }
}

/** update_resources for `actor`: written, or 403 naming the agent after the refusal is audited. */
export async function writeResourcesAs(store: LightningStore, actor: Actor, resourcesId: string, resources: NamedResources): Promise<ResourcesUpdate> {
  let judged: PendingResourcesWrite | undefined;
  const out = await store.updateResourcesGuarded(resourcesId, resources, (write) => ((judged = write), lineageRefusal(actor, write)));
  if ("written" in out) return out.written;
  await recordResourcesRefusal(store.database, actor, resourcesId, out.refused, judged && { version: judged.version, digest: judged.digest });
  throw new HttpError(403, out.refused.reason);
}
