// Clients that hold a request body open, as an attacker would: a declared length of which only `send` bytes
// ever arrive (the rest never comes), or an endless chunked body. They say what the server answered, when,
// and when it closed the connection. Shared by tests/integration/http/stalled-bodies.test.ts and bench/stall.ts.
import http from "node:http";

export type StallAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number };
export type Stall = { answered: Promise<StallAnswer | null>; closed: Promise<number>; sent: Promise<void>; abort(): void };

/** POSTs `declared` bytes' worth of headers, sends `send` bytes of it, then waits — never ending the body. */
export function stallBody(base: string, path: string, opts: { headers?: Record<string, string>; declared: number; send: number; method?: string }): Stall {
  const u = new URL(path, base);
  const t0 = Date.now();
  const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? "POST", headers: { ...opts.headers, "content-length": String(opts.declared) }, agent: false });
  req.on("error", () => {});
  const answered = new Promise<StallAnswer | null>((resolve) => {
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", () => {});
      res.on("close", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: Date.now() - t0 }));
    });
    req.on("close", () => setTimeout(() => resolve(null), 50));
  });
  const closed = new Promise<number>((resolve) => req.on("socket", (s) => s.once("close", () => resolve(Date.now() - t0))));
  const chunk = Buffer.alloc(Math.min(opts.send, 256 * 1024) || 1, 0x20);
  let written = 0;
  const sent = new Promise<void>((resolve) => {
    const pump = () => {
      while (written < opts.send && !req.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, opts.send - written));
        written += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      resolve();
    };
    if (opts.send === 0) {
      req.flushHeaders();
      resolve();
    } else pump();
  });
  return { answered, closed, sent, abort: () => req.destroy() };
}

/**
 * The tRPC mutation a signed-in person calls (passkeys.beginRegistration: cheap, any role): status and time.
 * Its body is padded with whitespace to `bytes`, the size of a signed approval (payload and WebAuthn assertion).
 */
export async function timedMutation(base: string, cookie: string, origin: string, bytes = 4096): Promise<{ status: number; ms: number; text: string }> {
  const t0 = Date.now();
  const body = "{}".padEnd(bytes, " ");
  const res = await fetch(`${base}/api/trpc/passkeys.beginRegistration`, { method: "POST", headers: { "content-type": "application/json", cookie, origin }, body });
  const text = await res.text();
  return { status: res.status, ms: Date.now() - t0, text };
}

/** Signs a person in over HTTP; the Cookie header a browser would send next. */
export async function signInOverHttp(base: string, origin: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

export const percentile = (ms: number[], p: number) => [...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] ?? NaN;
