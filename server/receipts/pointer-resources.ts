// GET /v1/pointers/<agent>/<approved-default | canary | latest-candidate>/resources: the bytes a pointer names.
// The answer is exactly the stored {resourcesId, version} of the pointer, in the store's ResourcesUpdate shape
// plus its `digest` (re-hashed from the stored bytes now, RFC 8785 + sha-256) and the pointer itself; the
// digest is also in `X-Lightgate-Digest`. When the store does not hold that version, or its bytes hash to
// another digest than the pointer names, the answer says so and carries no resources: a consumer asking for
// the approved default never receives another version (a later candidate under the same id included).
import type { PointerRecord } from "@/server/candidates/pointers";
import { digestOf } from "@/server/digest";
import type { Database } from "@/server/db/client";
import { storeFor } from "@/server/store";
import { DIGEST_HEADER, pinnedDigest } from "@/server/store/resources";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });

/** The answer for `pointer` (already read and its caller admitted). `view` is the pointer's name-only body. */
export async function pointerResourcesResponse(database: Database, pointer: PointerRecord, view: Record<string, unknown>): Promise<Response> {
  const named = pinnedDigest(pointer.digest);
  const what = `${pointer.agent}'s ${pointer.kind.replace("_", " ")} names ${pointer.resourcesId} version ${pointer.version} (${named})`;
  const found = await storeFor(database).exactResources(pointer.resourcesId, { version: pointer.version });
  if ("missing" in found) {
    return json(404, { error: "target_missing", agent: pointer.agent, pointer: view.pointer, message: `${what}, which the store does not hold (${found.missing}). Nothing is served in its place.` });
  }
  const actual = digestOf(found.update.resources);
  if (actual !== named) {
    return json(409, { error: "digest_mismatch", agent: pointer.agent, pointer: view.pointer, message: `${what}, but the stored bytes of that version hash to ${actual}. Nothing is served in its place.` });
  }
  return json(200, { ...found.update, digest: actual, pointer: view }, { [DIGEST_HEADER]: actual });
}
