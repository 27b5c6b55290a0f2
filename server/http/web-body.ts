// Body limits on the web-standard path: Next.js route handlers (plain `next start`, and everything the
// production server hands to Next). The limits come from the one table (body-limits.ts).
import { callerIdentifier } from "@/server/auth/body-caller";
import { requestClientAddress } from "@/server/auth/client-address";
import { getDatabase } from "@/server/db/client";
import {
  BodyAbortedError,
  BodyStalledError,
  BodyTooLargeError,
  bodyLimitFor,
  bodyLimitOf,
  bodyTicket,
  countedByListener,
  declaredTooLarge,
  ServerBusyError,
  watchBodyRate,
  type BodyLimit,
  type BodyTicket,
} from "./body-limits";
import { bodyRefusalResponse } from "./refusals";

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Reads the whole body, refusing more than `limit.bytes`: a declared Content-Length over it before any
 * byte is read; a streamed body counted as it arrives and refused at the limit. The bytes are taken from
 * the family's in-flight budget through `ticket` as they arrive (the caller releases it when done with the
 * body); a body slower than BODY_READ is refused with BodyStalledError. It stops reading on a refusal
 * without cancelling the stream — cancelling destroys the socket before the answer can be written.
 */
export async function readWebBody(request: Request, limit: BodyLimit, ticket: BodyTicket): Promise<Uint8Array> {
  const declared = declaredTooLarge(request.headers, request.method, limit);
  if (declared) throw declared;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let stalled: (() => void) | undefined;
  const stall = new Promise<"stalled">((resolve) => (stalled = () => resolve("stalled")));
  const unwatch = watchBodyRate(() => size, stalled!);
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), stall]).catch((e: unknown) => {
        throw new BodyAbortedError(e);
      });
      if (next === "stalled") throw new BodyStalledError(limit, size);
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit.bytes) throw new BodyTooLargeError(limit, request.method);
      if (!ticket.take(next.value.byteLength)) throw new ServerBusyError(limit, ticket.shortfall);
      chunks.push(next.value);
    }
  } catch (e) {
    ticket.release(); // at once: a refused or stalled body holds nothing
    if (!(e instanceof BodyStalledError)) reader.releaseLock(); // a stalled read is still pending
    throw e;
  } finally {
    unwatch();
  }
  return concat(chunks, size);
}

const identify = callerIdentifier(getDatabase);

/**
 * A route handler whose request body is held to its family's limits: refused (413 over the limit, 503 when
 * the family's in-flight budget or the caller's share of it is spent, 408 when it stalls; the family's error
 * shape, `Connection: close`), otherwise read once and handed on as a buffered Request. GET and HEAD take no
 * body. The caller is identified from the headers before a byte is counted. A body the production listener
 * already read and counted is not counted again. `"by-path"`: the family is the one the table gives the
 * request's path (`bodyLimitFor`, as the production server judges it), for a route file that serves paths
 * of several families.
 */
export function withBodyLimit<Rest extends unknown[]>(family: BodyLimit["family"] | "by-path", handler: (request: Request, ...rest: Rest) => Promise<Response>) {
  const base = family === "by-path" ? null : bodyLimitOf(family);
  return async (request: Request, ...rest: Rest): Promise<Response> => {
    const limit = base === null ? bodyLimitFor(new URL(request.url).pathname, request.method) : request.method === "GET" || request.method === "HEAD" ? { ...base, bytes: 0 } : base;
    let ticket: BodyTicket | undefined;
    try {
      const declared = declaredTooLarge(request.headers, request.method, limit);
      if (declared) throw declared;
      if (limit.bytes === 0 || !request.body) return await handler(request, ...rest);
      if (countedByListener(request.headers)) ticket = { take: () => true, shortfall: null, release() {} };
      else ticket = bodyTicket(limit, await identify(request.headers, requestClientAddress(request.headers)));
      const body = await readWebBody(request, limit, ticket);
      return await handler(new Request(request.url, { method: request.method, headers: request.headers, body: body as BodyInit, signal: request.signal }), ...rest);
    } catch (e) {
      if (e instanceof BodyTooLargeError || e instanceof ServerBusyError || e instanceof BodyStalledError) return bodyRefusalResponse(limit, request, e);
      throw e;
    } finally {
      ticket?.release();
    }
  };
}
