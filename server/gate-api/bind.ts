// `POST /v1/gate/receipts/{receipt_id}/candidate`: the resource version the algorithm wrote becomes the
// receipt's candidate. Its digest comes from the store; stage 1 is completed with it and the candidate is
// registered (moving `latest candidate` only) in the same transaction as the conditional update that binds
// the declaration — a receipt names exactly one candidate, and a second bind is a 409 that wrote nothing.
import type { Actor } from "@/server/auth/actor";
import { registerCandidateIn, registerLocks } from "@/server/candidates/register";
import type { Database } from "@/server/db/client";
import type { Digest } from "@/server/digest";
import type { DeclarationRecord } from "@/server/receipts/declarations";
import { holdDeclaredEvidence } from "@/server/receipts/rollups";
import { storeFor } from "@/server/store";
import { DomainError } from "@/server/errors";
import { badField } from "./answer";
import type { BindCandidateBody } from "./bind.schema";

export type Bound = { receiptId: string; candidateId: string; digest: Digest };

const alreadyBound = (d: { id: string; candidateId: string | null }) => new DomainError("CONFLICT", `receipt_id: receipt ${d.id} is already bound to candidate ${d.candidateId}; a receipt names one candidate`, "receipt_id");

export async function bindCandidate(database: Database, actor: Actor, declaration: DeclarationRecord, body: BindCandidateBody): Promise<Bound> {
  if (declaration.candidateId) throw alreadyBound(declaration);
  const d = declaration.declaration;
  if (d.candidate && d.candidate.resourceId !== body.resources_id) {
    throw badField("resources_id", `the receipt declared the candidate as ${d.candidate.resourceId}, not ${body.resources_id.slice(0, 200)}`);
  }
  if (body.resources_id === d.parent.resourceId && body.version === d.parent.version) throw badField("resources_id", "the candidate may not be its own parent");
  const version = await storeFor(database).resourcesVersion(body.resources_id, body.version);
  if (!version) {
    const known = await database.db.storeResourcesVersion.count({ where: { resourcesId: body.resources_id } });
    throw known === 0 ? badField("resources_id", `no resources "${body.resources_id.slice(0, 200)}" in the store`) : badField("version", `${body.resources_id.slice(0, 200)} has no version ${body.version} in the store`);
  }
  const digest = version.digest as Digest;
  if (digest === d.parent.digest) throw badField("resources_id", "the candidate may not be its own parent (same digest)");
  const { trainingResourcesIds: _ids, candidate: _declared, ...stage1 } = d;
  const candidate = await database.transaction(
    async (tx) => {
      const registered = await registerCandidateIn(tx, { agent: declaration.agent, resource: { resourcesId: body.resources_id, version: body.version, digest }, stage1: { ...stage1, candidate: { resourceId: body.resources_id } }, actor });
      const bound = await tx.receiptDeclaration.updateMany({ where: { id: declaration.id, candidateId: null }, data: { candidateId: registered.id, boundAt: new Date() } });
      if (bound.count !== 1) throw alreadyBound((await tx.receiptDeclaration.findUnique({ where: { id: declaration.id } })) ?? { id: declaration.id, candidateId: "another" });
      return registered;
    },
    { locks: [...registerLocks(declaration.agent), `receipt-declaration:${declaration.id}`] },
  );
  await holdDeclaredEvidence(database, { id: candidate.id, resourcesId: body.resources_id });
  return { receiptId: declaration.id, candidateId: candidate.id, digest };
}

/** registerCandidate's fields as the request spells them. */
export const BIND_FIELDS: ReadonlyMap<string, string> = new Map([
  ["resource", "resources_id"],
  ["resource.digest", "resources_id"],
]);

