// Body limits on the web-standard path: Next.js route handlers (plain `next start`, and everything the
// production server hands to Next). The limit comes from the one table (body-limits.ts).
import { BodyAbortedError, BodyTooLargeError, bodyLimitOf, declaredTooLarge, type BodyLimit } from "./body-limits";
import { tooLargeResponse } from "./refusals";

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
 * byte is read; a streamed body counted as it arrives and refused at the limit. It stops reading there
 * without cancelling the stream — cancelling destroys the socket before the 413 can be written.
 */
export async function readWebBody(request: Request, limit: BodyLimit): Promise<Uint8Array> {
  const declared = declaredTooLarge(request.headers, request.method, limit);
  if (declared) throw declared;
  if (!request.body) return new Uint8Array();
  if (request.headers.get("content-length") !== null) {
    // Within bounds by its header (node's parser holds the body to it): one read, the fast path.
    const bytes = new Uint8Array(await request.arrayBuffer().catch((e: unknown): never => {
        throw new BodyAbortedError(e);
      }));
    if (bytes.byteLength > limit.bytes) throw new BodyTooLargeError(limit, request.method);
    return bytes;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((e: unknown): never => {
      throw new BodyAbortedError(e);
    });
    if (done) break;
    size += value.byteLength;
    if (size > limit.bytes) {
      reader.releaseLock();
      throw new BodyTooLargeError(limit, request.method);
    }
    chunks.push(value);
  }
  return concat(chunks, size);
}

/**
 * A route handler whose request body is held to its family's limit: refused with 413 (in the family's
 * error shape, `Connection: close`) when over it, otherwise read once and handed on as a buffered Request.
 * GET and HEAD take no body.
 */
export function withBodyLimit<Rest extends unknown[]>(family: BodyLimit["family"], handler: (request: Request, ...rest: Rest) => Promise<Response>) {
  const base = bodyLimitOf(family);
  return async (request: Request, ...rest: Rest): Promise<Response> => {
    const limit = request.method === "GET" || request.method === "HEAD" ? { ...base, bytes: 0 } : base;
    try {
      const declared = declaredTooLarge(request.headers, request.method, limit);
      if (declared) throw declared;
      if (limit.bytes === 0 || !request.body) return await handler(request, ...rest);
      const body = await readWebBody(request, limit);
      return await handler(new Request(request.url, { method: request.method, headers: request.headers, body: body as BodyInit, signal: request.signal }), ...rest);
    } catch (e) {
      if (e instanceof BodyTooLargeError) return tooLargeResponse(limit, request, e);
      throw e;
    }
  };
}
