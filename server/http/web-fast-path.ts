// A web-standard handler (Request → Response) served straight on node:http, past Next.js: the production
// server's path for the gate API. Next's proxy would buffer at most its own page limit of a body and hand the
// route a truncated rest, and a 16 MiB dataset is no page. The body is held to its path's limit from the one
// table (declared length before a byte is read, a streamed body counted as it arrives against the family's
// in-flight budget and the caller's share, the read's rate), exactly as on the store's fast path.
import type http from "node:http";
import { knownCaller, type IdentifyCaller } from "@/server/auth/body-caller";
import { nodeClientAddress, trustedProxyHops } from "@/server/auth/client-address";
import { BodyAbortedError, BodyStalledError, BodyTooLargeError, bodyLimitFor, bodyTicket, ServerBusyError } from "./body-limits";
import { declaredRefusal, lingerOnClose, nodeHeaderReader, readNodeBody, requestUrl, sendRefusal } from "./node-body";
import { bodyRefusal } from "./refusals";

function webHeaders(headers: http.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(", ") : value);
  return out;
}

async function sendWeb(res: http.ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, { ...headers, "content-length": String(body.byteLength) });
  res.end(body);
}

export function webFastPath(handle: (request: Request) => Promise<Response>, fallbackHost = "127.0.0.1", identify?: IdentifyCaller): http.RequestListener {
  const hops = trustedProxyHops();
  return (req, res) => {
    const url = requestUrl(req, fallbackHost);
    const refusal = declaredRefusal(req, url);
    if (refusal) return sendRefusal(req, res, refusal);
    const method = req.method ?? "GET";
    const limit = bodyLimitFor(url.pathname, method);
    const headers = nodeHeaderReader(req.headers);
    const address = nodeClientAddress(req, hops);
    // The caller is known before a byte is counted: its key (checked, cached), its session, else its address.
    const read =
      method === "GET" || method === "HEAD"
        ? Promise.resolve(undefined)
        : (identify ? identify(headers, address) : Promise.resolve(knownCaller(headers, address))).then((caller) => {
            const ticket = bodyTicket(limit, caller);
            res.once("close", () => ticket.release());
            return readNodeBody(req, limit, ticket);
          });
    read
      .then(async (body) => sendWeb(res, await handle(new Request(url, { method, headers: webHeaders(req.headers), body: body && new Uint8Array(body) }))))
      .catch((e: unknown) => {
        if (e instanceof BodyTooLargeError || e instanceof ServerBusyError || e instanceof BodyStalledError) return sendRefusal(req, res, bodyRefusal(limit, { url, headers }, e));
        if (e instanceof BodyAbortedError || res.headersSent) return void res.destroy();
        lingerOnClose(req);
        res.writeHead(500, { "content-type": "application/json", "cache-control": "no-store", connection: "close" });
        res.end(JSON.stringify({ error: "internal", message: "internal error: the server could not answer this call (it is logged)" }));
        console.error(`fast path ${method} ${url.pathname.slice(0, 200)}:`, e);
      });
  };
}
