// Which refusals at the HTTP edge are decisions worth an audit row (server/audit/refusal-log.ts coalesces
// them): every refusal of a request that could change something (any method but GET and HEAD), a wrong method
// anywhere, and a refused credential — a 401 or 403 to a request that presented a key or a session. Not: a
// GET without any credential (a visitor who is not signed in), a path no route serves (`route` null), nor a
// failure of the server itself (5xx, logged instead).
import type { Actor } from "@/server/auth/actor";
import { refusalCaller } from "@/server/auth/refusal-caller";
import { refusalLog, type RefusalCaller } from "@/server/audit/refusal-log";
import type { Database } from "@/server/db/client";

/** A web Request, or the store's own request (server/store/http/exchange.ts). */
export type RefusedRequest = { method: string; url: string | URL; headers: { get(name: string): string | null } };

export type EdgeAnswer = { route: string | null; status: number; reason: string; message: string };

export function isRecordedRefusal(method: string, credentialPresented: boolean, answer: EdgeAnswer): boolean {
  if (answer.status < 400 || answer.status >= 500 || answer.route === null) return false;
  if (answer.status === 405 || (method !== "GET" && method !== "HEAD")) return true;
  return credentialPresented && (answer.status === 401 || answer.status === 403);
}

/**
 * Records `answer` when it is a recorded refusal (see above); resolves once a first row is written, never
 * rejects. `presented`: the credential when the headers do not show it (a password in a sign-in's body).
 */
export function recordEdgeRefusal(database: Database, request: RefusedRequest, actor: Actor | null, answer: EdgeAnswer, presented?: RefusalCaller["credential"]): Promise<void> {
  const caller = refusalCaller(request.headers, actor);
  if (presented) caller.credential = presented;
  if (!isRecordedRefusal(request.method, caller.credential !== "none" || actor !== null, answer)) return Promise.resolve();
  let path: string;
  try {
    path = typeof request.url === "string" ? new URL(request.url).pathname : request.url.pathname;
  } catch {
    path = "(unreadable)";
  }
  return refusalLog(database).record({ caller, route: answer.route!, method: request.method, status: answer.status, reason: answer.reason, message: answer.message, path });
}
