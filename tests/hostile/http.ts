// The suite's HTTP client: node:http, so a request goes out exactly as generated — the path byte for byte
// (bad percent-encodings included), any method, any content type, and uploads cut off half-way.
import http from "node:http";
import { gunzipSync } from "node:zlib";

/** One generated request. `route` names its route family member, for grouping failures. */
export type HostileCase = {
  route: string;
  /** Who it is sent as (an identity label), for the report. */
  who?: string;
  method: string;
  /** Path and query, sent verbatim (only characters 0x21–0xff). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** This request must be refused (≥ 400), and why: e.g. a cross-origin mutation carrying a session cookie. */
  mustRefuse?: string;
  /** …with this status (413 for a body larger than any limit). */
  refuseWith?: number;
  /** …naming this (the field at fault): the refusal's body must contain it. */
  mustName?: string;
  /** Tables a refusal of this request may add rows to, because refusals there are recorded (the audit log). */
  refusalRecordedIn?: readonly RegExp[];
  /** Send only this many body bytes, then drop the connection: no answer is expected, only no harm. */
  dropAfterBytes?: number;
};

export type Answered = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number };
export type Answer = Answered | { status: 0; error: string; ms: number };
export const unanswered = (a: Answer): a is Extract<Answer, { error: string }> => "error" in a;

const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });

export function send(base: URL, c: HostileCase, timeoutMs = 30_000): Promise<Answer> {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Answer) => {
      if (!settled) resolve(a);
      settled = true;
    };
    const headers: Record<string, string> = { ...c.headers };
    if (c.body !== undefined) headers["content-length"] = String(c.body.length);
    let req: http.ClientRequest;
    try {
      req = http.request({ host: base.hostname, port: base.port, method: c.method, path: c.path, headers, agent: c.dropAfterBytes === undefined ? agent : false, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body: decoded(res.headers, Buffer.concat(chunks)), ms: ms() }));
        res.on("error", (e) => done({ status: 0, error: `response: ${e.message}`, ms: ms() }));
      });
    } catch (e) {
      // The generator made a request node:http will not send (a character it refuses in the path).
      return done({ status: 0, error: `not sendable: ${(e as Error).message}`, ms: ms() });
    }
    req.on("timeout", () => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    });
    req.on("error", (e) => done({ status: 0, error: e.message, ms: ms() }));
    if (c.dropAfterBytes !== undefined && c.body) {
      req.write(c.body.subarray(0, c.dropAfterBytes));
      // Give the server the partial body, then vanish as a crashed client would.
      setTimeout(() => {
        req.destroy();
        done({ status: 0, error: "dropped by the client (expected)", ms: ms() });
      }, 50);
      return;
    }
    req.end(c.body);
  });
}

function decoded(headers: http.IncomingHttpHeaders, body: Buffer): Buffer {
  if (headers["content-encoding"] !== "gzip" || body.length === 0) return body;
  try {
    return gunzipSync(body);
  } catch {
    return body;
  }
}

export function closeConnections(): void {
  agent.destroy();
}
