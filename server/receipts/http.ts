// HTTP edges of the gate for production consumers and auditors: the two pointers, their history, and a
// receipt as a DSSE-signed in-toto statement. Who may call which is declared once in GATE_ROUTE_ACCESS.
// The approved-default answer comes only from the approved_default record: when there is none it is a 404
// that says so — never the latest candidate.
import type { Scope } from "@/lib/auth/scopes";
import { BAD_PERCENT_ENCODING, decodePathSegments, pathNameProblem } from "@/lib/http/path-segments";
import { actorCan, resolveActor } from "@/server/auth/actor";
import { authenticateApiKey } from "@/server/auth/api-keys";
import type { Database } from "@/server/db/client";
import { pointerAt, readPointer, type PointerKind, type PointerRecord } from "@/server/candidates/pointers";
import { buildReceiptStatement, exportReceipt } from "@/server/gate/export/statement";
import { tokenOf } from "@/server/store/http/auth";
import { pointerResourcesResponse } from "./pointer-resources";
import { gateReport } from "./report";
import { receiptSigningKey } from "@/server/keys/signing-key";

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "cache-control": "no-store" } });

/**
 * "public": no credentials; `apiKey: "any"`: any valid API key, or a session whose roles hold `session` (for
 * the agent asked about); `apiKey: <scope>` with `session: null`: only an API key holding that scope for the
 * agent asked about (people are refused).
 */
export type GateRouteAccess = "public" | { apiKey: "any"; session: Scope } | { apiKey: Scope; session: null };

/**
 * Who may call the gate's HTTP routes, declared once: the handlers below enforce it and the route matrix
 * test reads it. Production consumers read pointers with any valid key (runners hold one); people need what
 * the dashboard needs to show the same thing; verifying a receipt needs only the public key.
 */
export const GATE_ROUTE_ACCESS = {
  pointer: { apiKey: "any", session: "dashboard:read" },
  // The bytes a pointer names carry the credentials runners call models with: the store's rule for reading
  // resources (store:write), per agent; people read them masked on the dashboard instead.
  pointerResources: { apiKey: "store:write", session: null },
  receipt: { apiKey: "any", session: "dashboard:read" },
  publicKey: "public",
} as const satisfies Record<"pointer" | "pointerResources" | "receipt" | "publicKey", GateRouteAccess>;

/** Refuses the request (a Response) unless `access` lets its caller in; runs before any other work. */
async function refusal(request: Request, database: Database, access: GateRouteAccess, agent: string | null): Promise<Response | null> {
  if (access === "public") return null;
  const token = tokenOf(request);
  if (token !== null) {
    const service = await authenticateApiKey(database.db, token);
    if (!service) return json(401, { error: "unauthorized", message: "the API key is invalid or revoked" });
    if (access.apiKey === "any" || actorCan(service, access.apiKey, agent)) return null;
    return json(403, { error: "forbidden", message: `${service.name} lacks the "${access.apiKey}" scope${agent === null ? "" : ` for agent "${agent}"`}: the resources a pointer names carry model credentials` });
  }
  if (access.session === null) return json(401, { error: "unauthorized", message: `send Authorization: Bearer <API key> holding "${access.apiKey}"; people read resources masked on the dashboard` });
  const person = await resolveActor(request.headers, database);
  if (!person) return json(401, { error: "unauthorized", message: "send Authorization: Bearer <API key> or sign in" });
  if (actorCan(person, access.session, agent)) return null;
  return json(403, { error: "forbidden", message: `${person.name} lacks the "${access.session}" scope${agent === null ? "" : ` for agent "${agent}"`}` });
}

// A Map, not an object: the name comes from the URL, and `toString` or `__proto__` must not find anything.
const POINTER_PATHS: ReadonlyMap<string, PointerKind> = new Map([
  ["approved-default", "approved_default"],
  ["latest-candidate", "latest_candidate"],
  ["canary", "canary"],
]);

const pointerBody = (p: PointerRecord) => ({
  agent: p.agent,
  pointer: p.kind.replace("_", "-"),
  resourcesId: p.resourcesId,
  version: p.version,
  digest: p.digest,
  candidateId: p.candidateId,
  receiptDigest: p.receiptDigest,
  movedBy: p.movedById,
  movedAt: p.movedAt.toISOString(),
});

/**
 * The names in `/v1/<area>/…` of the request's own URL, decoded once here (Next.js's params may be decoded
 * already, or not at all for a bad encoding): `count` names, or the 400/404 to answer.
 */
function namesFromPath(request: Request, area: "pointers" | "receipts", labels: string[]): string[] | Response {
  const segments = decodePathSegments(new URL(request.url).pathname);
  if (segments === null) return json(400, { error: "bad_request", message: BAD_PERCENT_ENCODING });
  const names = segments.slice(2);
  if (segments[0] !== "v1" || segments[1] !== area || names.length !== labels.length) return json(404, { error: "not_found", message: `no such path under /v1/${area}` });
  for (const [i, name] of names.entries()) {
    const problem = pathNameProblem(name, labels[i]!);
    if (problem) return json(400, { error: "bad_request", field: labels[i], message: problem });
  }
  return names;
}

/** GET /v1/pointers/<agent>/<pointer>[/resources], with the names read from the request's URL. */
export async function servePointerPath(database: Database, request: Request): Promise<Response> {
  const segments = decodePathSegments(new URL(request.url).pathname);
  const bytes = segments?.length === 5 && segments[4] === "resources";
  const names = namesFromPath(request, "pointers", bytes ? ["agent", "pointer", "resources"] : ["agent", "pointer"]);
  return names instanceof Response ? names : handlePointerRequest(database, request, names[0]!, names[1]!, bytes);
}

/** GET /v1/receipts/<candidateId>, with the id read from the request's URL. */
export async function serveReceiptPath(database: Database, request: Request): Promise<Response> {
  const names = namesFromPath(request, "receipts", ["candidateId"]);
  return names instanceof Response ? names : handleReceiptRequest(database, request, names[0]!);
}

/**
 * GET /v1/pointers/<agent>/<approved-default | latest-candidate | canary | history> (names already decoded): the
 * pointer's name; with `bytes`, …/<pointer>/resources: the resource it names (pointer-resources.ts).
 */
export async function handlePointerRequest(database: Database, request: Request, agent: string, what: string, bytes = false): Promise<Response> {
  const refused = await refusal(request, database, bytes ? GATE_ROUTE_ACCESS.pointerResources : GATE_ROUTE_ACCESS.pointer, agent);
  if (refused) return refused;
  if (what === "history" && !bytes) return pointerHistory(database, agent, new URL(request.url).searchParams.get("at"));
  const kind = POINTER_PATHS.get(what);
  if (!kind) return json(404, { error: "not_found", message: `unknown pointer "${what}": use approved-default, latest-candidate, canary${bytes ? "" : " or history"}` });
  const pointer = await readPointer(database.db, agent, kind);
  if (!pointer) {
    const message =
      kind === "approved_default"
        ? `${agent} has no approved default yet. Nothing is served in its place: the latest candidate is not approved.`
        : kind === "canary"
          ? `${agent} has no candidate in a bounded canary.`
          : `${agent} has no candidate yet.`;
    return json(404, { error: "no_pointer", agent, pointer: what, message });
  }
  return bytes ? pointerResourcesResponse(database, pointer, pointerBody(pointer)) : json(200, pointerBody(pointer));
}

async function pointerHistory(database: Database, agent: string, atParam: string | null): Promise<Response> {
  if (atParam !== null) {
    const at = new Date(atParam);
    // PostgreSQL timestamps end at year 294276 and start at 4713 BC; JS dates reach further either way.
    const year = at.getUTCFullYear();
    if (Number.isNaN(at.getTime()) || year < 1 || year > 9999) return json(400, { error: "bad_request", field: "at", message: "at: must be an ISO-8601 time between the years 1 and 9999" });
    const [approved, latest] = await Promise.all([pointerAt(database.db, agent, "approved_default", at), pointerAt(database.db, agent, "latest_candidate", at)]);
    const view = (m: typeof approved) => m && { resourcesId: m.toResourcesId, version: m.toVersion, digest: m.toDigest, candidateId: m.candidateId, receiptDigest: m.receiptDigest, movedBy: m.actorId, movedAt: m.at.toISOString(), reason: m.reason };
    return json(200, { agent, at: at.toISOString(), approvedDefault: view(approved), latestCandidate: view(latest) });
  }
  const moves = await database.db.pointerMove.findMany({ where: { agent }, orderBy: [{ at: "desc" }, { id: "desc" }], take: 500 });
  return json(200, {
    agent,
    moves: moves.map((m) => ({
      pointer: m.kind.replace("_", "-"),
      from: m.fromDigest && { resourcesId: m.fromResourcesId, version: m.fromVersion, digest: m.fromDigest },
      to: { resourcesId: m.toResourcesId, version: m.toVersion, digest: m.toDigest },
      candidateId: m.candidateId,
      receiptDigest: m.receiptDigest,
      by: m.actorId,
      at: m.at.toISOString(),
      reason: m.reason,
    })),
  });
}

/** GET /v1/receipts/<candidateId>: the receipt as an in-toto Statement v1 in a DSSE envelope (Ed25519). */
export async function handleReceiptRequest(database: Database, request: Request, candidateId: string): Promise<Response> {
  const refused = await refusal(request, database, GATE_ROUTE_ACCESS.receipt, null);
  if (refused) return refused;
  const candidate = await database.db.candidate.findUnique({ where: { id: candidateId }, select: { id: true } });
  if (!candidate) return json(404, { error: "not_found", message: `no candidate ${candidateId}` });
  const stored = await gateReport(database, candidateId);
  if (!stored.report) return json(409, { error: "unverifiable", message: stored.verification.ok ? "the receipt has no sealed stages yet" : "the stored receipt fails verification", problems: stored.verification.ok ? [] : stored.verification.problems });
  const key = await receiptSigningKey(database.db);
  try {
    const statement = buildReceiptStatement({ chain: stored.chain, report: stored.report, policy: stored.policy, currentVersions: stored.versions, decisions: stored.decisions, parentLoad: stored.parentLoad });
    return json(200, exportReceipt(statement, key.privateKey, key.keyid));
  } catch (e) {
    return json(409, { error: "not_exportable", message: (e as Error).message });
  }
}

/** GET /v1/receipts/public-key: the PEM that verifies exported receipts (`npm run verify-receipt -- FILE --key`). */
export async function handlePublicKeyRequest(database: Database, request: Request): Promise<Response> {
  const refused = await refusal(request, database, GATE_ROUTE_ACCESS.publicKey, null);
  if (refused) return refused;
  const key = await receiptSigningKey(database.db);
  return new Response(key.publicPem, { headers: { "content-type": "application/x-pem-file", "x-key-id": key.keyid, "cache-control": "no-store" } });
}
