// A production consumer loads its agent's approved default by the pointer — never "the latest resources" —
// and checks the bytes before using them:
//
//   LIGHTGATE_URL=http://127.0.0.1:3000 LIGHTGATE_API_KEY=lgk_… \
//     npx tsx examples/consumer/fetch-approved-default.ts <agent> [--expect sha256:<hex>] [--out resources.json]
//
// It fetches GET /v1/pointers/<agent>/approved-default/resources (a key holding store:write for the agent:
// resources carry model credentials), recomputes the digest of `resources` with the store's own rule
// (RFC 8785 canonical JSON, then SHA-256) and loads them only when it equals the digest the pointer names —
// in the body (`pointer.digest`), in the X-Lightgate-Digest header, and the one given with --expect (say,
// from a signed receipt). Self-contained on purpose (fetch, node:crypto and the `canonicalize` package), so
// it can be copied into a service. Exit codes: 0 loaded, 2 refused (a digest differs), 1 any other failure.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import canonicalize from "canonicalize";

type PointerResources = {
  resources_id: string;
  version: number;
  digest: string;
  resources: Record<string, unknown>;
  pointer: { agent: string; pointer: string; resourcesId: string; version: number; digest: string; candidateId: string | null };
};

class Refused extends Error {}

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** sha256:<hex> of the RFC 8785 canonical JSON of a value: how Lightgate names resources. */
function digestOf(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Refused("the resources have no JSON form");
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

async function main(): Promise<void> {
  const agent = process.argv[2];
  const base = process.env.LIGHTGATE_URL;
  const key = process.env.LIGHTGATE_API_KEY;
  if (!agent || agent.startsWith("--") || !base || !key) throw new Error("usage: LIGHTGATE_URL=… LIGHTGATE_API_KEY=… fetch-approved-default.ts <agent> [--expect sha256:<hex>] [--out file]");

  const url = new URL(`/v1/pointers/${encodeURIComponent(agent)}/approved-default/resources`, base);
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as PointerResources & { message?: string };
  if (!res.ok) throw new Error(`${url.pathname} answered ${res.status}: ${body.message ?? JSON.stringify(body)}`);

  const computed = digestOf(body.resources);
  const named: [string, string | null | undefined][] = [
    ["the pointer", body.pointer?.digest],
    ["the X-Lightgate-Digest header", res.headers.get("x-lightgate-digest")],
    ["--expect", argument("--expect")],
  ];
  for (const [where, digest] of named) {
    if (where === "--expect" && digest === undefined) continue;
    if (digest !== computed) throw new Refused(`refusing to load ${agent}'s approved default: its bytes hash to ${computed}, but ${where} names ${digest ?? "nothing"}`);
  }
  if (body.resources_id !== body.pointer.resourcesId || body.version !== body.pointer.version) {
    throw new Refused(`refusing to load: the answer is ${body.resources_id} v${body.version}, the pointer names ${body.pointer.resourcesId} v${body.pointer.version}`);
  }

  const out = argument("--out");
  if (out) writeFileSync(out, JSON.stringify(body.resources, null, 2));
  console.log(JSON.stringify({ loaded: true, agent, resources_id: body.resources_id, version: body.version, digest: computed, candidate: body.pointer.candidateId }));
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exit(e instanceof Refused ? 2 : 1);
});
