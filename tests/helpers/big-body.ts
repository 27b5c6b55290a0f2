// A client that sends a body far larger than a route takes, as an attacker would: a declared
// Content-Length it never sends ("declared": the server must answer from the headers alone), a declared
// length it does send ("length"), or chunks streamed from a generator ("chunked"; never held in memory),
// until the server answers and closes the connection. It reports what
// the server answered, how many bytes got out, and whether the server cut it off before it was done.
import http from "node:http";

export type BigBodyResult = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; sent: number; cutOff: boolean; continued: boolean };

export function sendBigBody(
  base: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; total: number; mode: "declared" | "length" | "chunked"; expectContinue?: boolean; timeoutMs?: number; body?: (i: number) => Buffer },
): Promise<BigBodyResult> {
  return new Promise((resolve) => {
    const u = new URL(path, base);
    const framing = opts.mode === "chunked" ? { "transfer-encoding": "chunked" } : { "content-length": String(opts.total) };
    const headers = { ...opts.headers, ...framing, ...(opts.expectContinue ? { expect: "100-continue" } : {}) };
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? "POST", headers, agent: false });
    const filler = Buffer.alloc(64 * 1024, 0x61);
    const chunks: Buffer[] = [];
    let response: http.IncomingMessage | undefined;
    let sent = 0;
    let writing = opts.mode !== "declared" && !opts.expectContinue;
    let finished = false;
    let continued = false;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status: response?.statusCode ?? 0, headers: response?.headers ?? {}, body: Buffer.concat(chunks), sent, cutOff: !finished && !timedOut, continued });
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
      settle();
    }, opts.timeoutMs ?? 20_000);
    let i = 0;
    const pump = () => {
      while (writing && sent < opts.total && !req.destroyed) {
        const part = opts.body?.(i++) ?? filler;
        const piece = sent + part.length > opts.total ? part.subarray(0, opts.total - sent) : part;
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (writing && sent >= opts.total && !req.destroyed) {
        finished = true;
        req.end();
      }
    };
    req.on("continue", () => {
      continued = true;
      writing = true;
      pump();
    });
    req.on("response", (res) => {
      response = res;
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", () => {});
    });
    req.on("socket", (socket) => socket.once("close", () => setTimeout(settle, 20)));
    req.on("error", () => {}); // EPIPE / ECONNRESET once the server closes: expected
    if (!writing) req.flushHeaders();
    else pump();
  });
}
