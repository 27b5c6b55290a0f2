// node:http around the store's handler: the fast path of the production server
// (scripts/serve.ts routes /v1/agl and /v1/traces here, past Next.js), and a bare server for tests and scripts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { knownCaller, type IdentifyCaller } from "@/server/auth/body-caller";
import { nodeClientAddress, trustedProxyHops } from "@/server/auth/client-address";
import { bodyLimitFor, bodyTicket, type BodyTicket, type Caller } from "@/server/http/body-limits";
import { applyServerTimeouts, checkContinue, closeIfUnread, declaredRefusal, lingerOnClose, nodeHeaderReader, readNodeBody, requestUrl, sendRefusal } from "@/server/http/node-body";
import type { StoreHandler, StoreResponse } from "./exchange";
import { borrowBuffer, returnBuffer } from "@/server/http/response-buffers";
import { json, partBytes, partData, writePart } from "./io";

export type ServedHandler = { url: string; server: http.Server; close(): Promise<void> };

/** Writes a StoreResponse; streamed bodies go chunk by chunk, waiting for the socket to drain. */
async function send(req: http.IncomingMessage, res: http.ServerResponse, response: StoreResponse): Promise<void> {
  const body = response.body;
  const headers = closeIfUnread(req, response.headers);
  if (headers.connection === "close") lingerOnClose(req);
  if (typeof body === "string") {
    // Text goes out as text: node joins it to the head and writes both at once (no Buffer made for it).
    res.writeHead(response.status, { ...headers, "content-length": String(Buffer.byteLength(body)) });
    res.end(body);
    return;
  }
  if (body === null || body instanceof Uint8Array) {
    const bytes = body ?? EMPTY;
    res.writeHead(response.status, { ...headers, "content-length": String(bytes.byteLength) });
    res.end(bytes);
    return;
  }
  if (Array.isArray(body)) {
    let length = 0;
    for (const part of body) length += partBytes(part);
    res.writeHead(response.status, { ...headers, "content-length": String(length) });
    // Lent only while "close" is still to come: a response already closed would never give it back.
    const buffer = res.destroyed ? null : borrowBuffer(length);
    if (buffer) {
      let at = 0;
      for (const part of body) at = writePart(buffer, at, part);
      res.once("close", () => returnBuffer(buffer));
      res.end(buffer.subarray(0, at));
      return;
    }
    res.cork(); // one writev for all parts
    for (const part of body) res.write(partData(part));
    res.end();
    return;
  }
  res.writeHead(response.status, headers);
  const iterator = body[Symbol.asyncIterator]();
  res.once("close", () => void iterator.return?.()); // the client went away: stop reading the store
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    if (res.destroyed) return;
    if (!res.write(next.value)) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
}
const EMPTY = new Uint8Array();

/**
 * Serves a StoreHandler on node:http. A declared length over the route's limit is refused before anything
 * else; the body is buffered only when a route asks for it (after the key check), up to the limit. Node's
 * Readable→web-stream bridge cost more CPU per request than the store work itself, hence no web Request.
 */
export function nodeListener(handle: StoreHandler, fallbackHost = "127.0.0.1", identify?: IdentifyCaller): http.RequestListener {
  const hops = trustedProxyHops();
  return (req, res) => {
    const fail = (e: unknown) => {
      if (res.headersSent) return res.destroy(e as Error);
      void send(req, res, json({ detail: (e as Error).message }, 500));
    };
    const url = requestUrl(req, fallbackHost);
    const method = req.method ?? "GET";
    const limit = bodyLimitFor(url.pathname, method);
    const headers = nodeHeaderReader(req.headers);
    const refusal = declaredRefusal(req, url, limit, headers);
    if (refusal) return sendRefusal(req, res, refusal);
    // Who sends the body: the key the route's check accepted (`identified`), else judged when the body is first
    // asked for — after that check, so a key is in its cache.
    let caller: Caller | undefined;
    let ticket: BodyTicket | undefined;
    // Made on first use: a GET never takes from the budget, so it never needs one.
    const ticketOf = () => {
      if (ticket) return ticket;
      const made = (ticket = bodyTicket(limit, () => (caller ??= knownCaller(headers, nodeClientAddress(req, hops)))));
      res.once("close", () => made.release());
      return made;
    };
    let read: Promise<Buffer | null> | undefined;
    const readBody = async () => {
      if (identify && !caller) caller = await identify(headers, nodeClientAddress(req, hops));
      return readNodeBody(req, limit, ticketOf());
    };
    const body = () => (read ??= method === "GET" || method === "HEAD" ? Promise.resolve(null) : readBody());
    const identified = (keyId: string) => void (caller ??= { kind: "key", id: keyId });
    handle({ method, url, headers, body, hold: (n) => ticketOf().take(n), identified })
      .then((response) => send(req, res, response))
      .catch(fail);
  };
}

export async function serveHandler(handle: StoreHandler, port = 0, host = "127.0.0.1"): Promise<ServedHandler> {
  const listener = nodeListener(handle, host);
  const server = http.createServer(listener);
  server.on("checkContinue", checkContinue(listener, host));
  applyServerTimeouts(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
