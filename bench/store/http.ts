// The load generator's HTTP: node:http over pooled keep-alive connections, as the Python client's aiohttp
// session does. Not fetch: on these 2-core machines Node 20's fetch spent ~1.4 ms of CPU per request
// (node:http ~0.18 ms), so a fetch client saturated its core near 1,000 requests/s whatever the server did.
import http from "node:http";

export type Reply = { status: number; body: Buffer };

/** One LightningStore server the bench talks to (any implementation: only the wire contract is used). */
export class Target {
  readonly host: string;
  readonly port: number;
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

  constructor(
    url: string,
    readonly auth: Record<string, string>,
  ) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  }

  request(method: string, path: string, body: Buffer | string | null, headers: Record<string, string> = {}): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const payload = body === null ? null : typeof body === "string" ? Buffer.from(body) : body;
      const all = { ...this.auth, ...headers, ...(payload ? { "content-length": String(payload.length) } : {}) };
      const req = http.request({ host: this.host, port: this.port, path, method, agent: this.agent, headers: all }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(payload ?? undefined);
    });
  }

  /** POST /v1/agl<path> with a JSON body; throws unless the status is expected. */
  async api<T = unknown>(path: string, body: unknown, expect = [200, 201]): Promise<T> {
    const res = await this.request("POST", `/v1/agl${path}`, JSON.stringify(body), { "content-type": "application/json" });
    if (!expect.includes(res.status)) throw new Error(`${path} → ${res.status} ${res.body.toString().slice(0, 200)}`);
    return JSON.parse(res.body.toString()) as T;
  }

  close() {
    this.agent.destroy();
  }
}
