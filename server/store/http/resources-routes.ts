// GET and POST /v1/agl/resources/<id>. Reads: without a query, the reference's latest (ResourcesUpdate, as
// Agent Lightning 0.3 answers it); `?version=N` and/or `?digest=sha256:<hex>` answer exactly that stored
// version — ResourcesUpdate plus `digest` (pydantic ignores the extra field) — or 404 naming what is missing.
// Every found answer names its digest (sha-256 of the RFC 8785 canonical JSON of `resources`) in
// `X-Lightgate-Digest`. Writes make a new version, judged against the id's release lineage (lineage-guard.ts).
import type { Actor } from "@/server/auth/actor";
import type { Digest } from "@/server/digest";
import type { Access } from "./auth";
import { detail, HttpError, json, objectBody, parseWith, validationError, type StoreResponse } from "./io";
import { recordResourcesRefusal, writeResourcesAs } from "./lineage-guard";
import * as s from "./schemas";
import type { LightningStore } from "../index";
import { DIGEST_HEADER, GATE_PIN_PREFIX, type VersionSelector } from "../resources";

type Ctx = { store: LightningStore; params: string[]; url: URL; body: () => unknown; actor: Actor | null };
type ResourcesRoute = { method: "GET" | "POST"; path: string; access: Access; handle(ctx: Ctx): Promise<StoreResponse> };

const INT32_MAX = 2 ** 31 - 1;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The query's one value of `key` (422 when repeated), or undefined. */
function single(url: URL, key: string): string | undefined {
  const values = url.searchParams.getAll(key);
  if (values.length > 1) throw validationError("query", [{ path: [key], message: "must be given at most once" }]);
  return values[0];
}

export function versionSelector(url: URL): VersionSelector | null {
  const version = single(url, "version");
  const digest = single(url, "digest")?.toLowerCase();
  if (version === undefined && digest === undefined) return null;
  const sel: VersionSelector = {};
  if (version !== undefined) {
    if (!/^[1-9][0-9]{0,9}$/.test(version) || Number(version) > INT32_MAX) throw validationError("query", [{ path: ["version"], message: `must be a version number from 1 to ${INT32_MAX}`, code: "int_parsing" }]);
    sel.version = Number(version);
  }
  if (digest !== undefined) {
    if (!DIGEST.test(digest)) throw validationError("query", [{ path: ["digest"], message: "must be sha256: followed by 64 hex digits" }]);
    sel.digest = digest as Digest;
  }
  return sel;
}

const withDigest = (r: StoreResponse, digest: string): StoreResponse => ({ ...r, headers: { ...r.headers, [DIGEST_HEADER]: digest } });

export function resourcesByIdRoutes(read: Access): ResourcesRoute[] {
  return [
    {
      method: "GET",
      path: "resources/:id",
      access: read,
      async handle(ctx) {
        const id = ctx.params[0]!;
        const sel = versionSelector(ctx.url);
        if (sel === null) {
          const latest = await ctx.store.getResourcesWithDigest(id);
          return latest ? withDigest(json(latest.update), latest.digest) : json(null);
        }
        const found = await ctx.store.exactResources(id, sel);
        if ("missing" in found) return detail(404, found.missing);
        return withDigest(json({ ...found.update, digest: found.digest }), found.digest);
      },
    },
    {
      method: "POST",
      path: "resources/:id",
      access: "store:enqueue",
      async handle(ctx) {
        const id = ctx.params[0]!;
        // The gate's pins are exact versions copied under immutable ids (server/receipts/gate-run/pins.ts).
        if (id.startsWith(GATE_PIN_PREFIX)) {
          const reason = `resources ids starting with ${GATE_PIN_PREFIX} are the gate's immutable pins; no key may write them`;
          await recordResourcesRefusal(ctx.store.database, ctx.actor!, id, { agent: null, reason });
          throw new HttpError(403, reason);
        }
        const res = parseWith(s.namedResources, objectBody(await ctx.body(), false), "body");
        return json(await writeResourcesAs(ctx.store, ctx.actor!, id, res as never));
      },
    },
  ];
}
