// The two gate routes a verifier uses, over Lightgate's public HTTP API with a `verifier` API key: the
// canary outcomes waiting for a verification, and posting one. Nothing else: a verifier never touches the
// store's queue or the gate's tables.
import { z } from "zod";
import { StoreHttpError } from "@/server/runner/client";

/** One canary outcome waiting for its verification (`GET /v1/gate/verifications/pending`). */
export const ZPendingVerification = z.looseObject({
  rollout_id: z.string().min(1),
  gate_run_id: z.string().min(1),
  case_id: z.string().min(1),
  input: z.unknown(),
  expected: z.unknown(),
  attempt: z.looseObject({ status: z.string(), metadata: z.record(z.string(), z.unknown()).nullable() }).nullable(),
});
export type PendingVerification = z.infer<typeof ZPendingVerification>;

/** What `POST /v1/gate/verifications` takes for a destination re-read (expected/observed as canonical JSON text). */
export type DestinationVerification = { rollout_id: string; method: "destination"; matched: boolean; expected?: string; observed?: string; note?: string };

export type PendingPage = { items: PendingVerification[]; malformed: string[] };

const TIMEOUT_MS = 30_000;
const PENDING_LIMIT = 500;

export class GateVerifierClient {
  readonly #root: string;
  readonly #auth: Record<string, string>;

  constructor(root: string, apiKey: string) {
    this.#root = root.replace(/\/+$/, "");
    this.#auth = { authorization: `Bearer ${apiKey}` };
  }

  async #call(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const res = await fetch(`${this.#root}${path}`, {
      method,
      headers: { ...this.#auth, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok && res.status !== 409) throw new StoreHttpError(res.status, path, text);
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new StoreHttpError(res.status, path, `not JSON: ${text}`);
    }
    return { status: res.status, json };
  }

  /** The pending outcomes; an entry that is not shaped as the contract says is reported, not fatal. */
  async pending(): Promise<PendingPage> {
    // The most the route answers at once, so outcomes this verifier leaves to others do not hide its own.
    const { json } = await this.#call("GET", `/v1/gate/verifications/pending?limit=${PENDING_LIMIT}`);
    if (!Array.isArray(json)) throw new StoreHttpError(200, "/v1/gate/verifications/pending", "expected a JSON array of pending outcomes");
    const page: PendingPage = { items: [], malformed: [] };
    for (const entry of json) {
      const parsed = ZPendingVerification.safeParse(entry);
      if (parsed.success) page.items.push(parsed.data);
      else page.malformed.push(`${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
    }
    return page;
  }

  /** "recorded", or "already" when the outcome was verified meanwhile (409: one record per outcome). */
  async post(verification: DestinationVerification): Promise<"recorded" | "already"> {
    const { status } = await this.#call("POST", "/v1/gate/verifications", verification);
    return status === 409 ? "already" : "recorded";
  }
}
