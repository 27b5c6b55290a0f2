// Body limits on the web-standard path: Next.js route handlers (plain `next start`, and everything the
// production server hands to Next). The limits come from the one table (body-limits.ts).
import { BodyAbortedError, BodyTooLargeError, bodyLimitFor, bodyLimitOf, bodyTicket, declaredTooLarge, ServerBusyError, type BodyLimit, type BodyTicket } from "./body-limits";
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

const aborted = (e: unknown): never => {
  throw new BodyAbortedError(e);
};

/**
 * Reads the whole body, refusing more than `limit.bytes`: a declared Content-Length over it before any
 * byte is read; a streamed body counted as it arrives and refused at the limit. The bytes are taken from
 * the family's in-flight budget through `ticket` (the caller releases it when done with the body). It
 * stops reading on a refusal without cancelling the stream — cancelling destroys the socket before the
 * answer can be written.
 */
export async function readWebBody(request: Request, limit: BodyLimit, ticket: BodyTicket): Promise<Uint8Array> {
  const declared = declaredTooLarge(request.headers, request.method, limit);
  if (declared) throw declared;
  if (!request.body) return new Uint8Array();
  const length = request.headers.get("content-length");
  if (length !== null) {
    // Within bounds by its header (node's parser holds the body to it): reserve it, then one read.
    if (!ticket.take(Number(length) || 0)) throw new ServerBusyError(limit);
    const bytes = new Uint8Array(await request.arrayBuffer().catch(aborted));
    if (bytes.byteLength > limit.bytes) throw new BodyTooLargeError(limit, request.method);
    return bytes;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(aborted);
    if (done) break;
    size += value.byteLength;
    const refusal = size > limit.bytes ? new BodyTooLargeError(limit, request.method) : !ticket.take(value.byteLength) ? new ServerBusyError(limit) : null;
    if (refusal) {
      reader.releaseLock();
      throw refusal;
    }
    chunks.push(value);
  }
  return concat(chunks, size);
}

/**
 * A route handler whose request body is held to its family's limits: refused (413 over the limit, 503 when
 * the family's in-flight budget is spent; the family's error shape, `Connection: close`), otherwise read
 * once and handed on as a buffered Request. GET and HEAD take no body. `"by-path"`: the family is the one
 * the table gives the request's path (`bodyLimitFor`, as the production server judges it), for a route
 * file that serves paths of several families.
 */
export function withBodyLimit<Rest extends unknown[]>(family: BodyLimit["family"] | "by-path", handler: (request: Request, ...rest: Rest) => Promise<Response>) {
  const base = family === "by-path" ? null : bodyLimitOf(family);
  return async (request: Request, ...rest: Rest): Promise<Response> => {
    const limit = base === null ? bodyLimitFor(new URL(request.url).pathname, request.method) : request.method === "GET" || request.method === "HEAD" ? { ...base, bytes: 0 } : base;
    const ticket = bodyTicket(limit);
    try {
      const declared = declaredTooLarge(request.headers, request.method, limit);
      if (declared) throw declared;
      if (limit.bytes === 0 || !request.body) return await handler(request, ...rest);
      const body = await readWebBody(request, limit, ticket);
      return await handler(new Request(request.url, { method: request.method, headers: request.headers, body: body as BodyInit, signal: request.signal }), ...rest);
    } catch (e) {
      if (e instanceof BodyTooLargeError || e instanceof ServerBusyError) return bodyRefusalResponse(limit, request, e);
      throw e;
    } finally {
      ticket.release();
    }
  };
}
