// The load generator's HTTP: undici's Pool, keep-alive connections as the Python client's aiohttp session
// keeps them. Not fetch: on these 2-core machines Node 20's fetch spent ~1.4 ms of CPU per request, and
// node:http 83–107 µs against undici's 70 (2026-12-07, 6,000 small POSTs, 8 in flight) — CPU the load
// client takes from the server it measures, which shares the machine.
import { Pool } from "undici";

export type Reply = { status: number; body: Buffer };

/** One LightningStore server the bench talks to (any implementation: only the wire contract is used). */
export class Target {
  readonly host: string;
  readonly port: number;
  readonly #pool: Pool;

  constructor(
    url: string,
    readonly auth: Record<string, string>,
  ) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
    this.#pool = new Pool(u.origin, { connections: 32, pipelining: 1 });
  }

  async request(method: string, path: string, body: Buffer | string | null, headers: Record<string, string> = {}): Promise<Reply> {
    const res = await this.#pool.request({ method: method as "GET", path, body, headers: { ...this.auth, ...headers } });
    return { status: res.statusCode, body: Buffer.from(await res.body.arrayBuffer()) };
  }

  /** POST /v1/agl<path> with a JSON body; throws unless the status is expected. */
  api<T = unknown>(path: string, body: unknown, expect = [200, 201]): Promise<T> {
    return this.post<T>(path, JSON.stringify(body), expect);
  }

  /** `api` with the body already serialized (a payload sent again and again is serialized once). */
  async post<T = unknown>(path: string, json: string, expect = [200, 201]): Promise<T> {
    const res = await this.request("POST", `/v1/agl${path}`, json, { "content-type": "application/json" });
    if (!expect.includes(res.status)) throw new Error(`${path} → ${res.status} ${res.body.toString().slice(0, 200)}`);
    return JSON.parse(res.body.toString()) as T;
  }

  close() {
    void this.#pool.destroy();
  }
}
