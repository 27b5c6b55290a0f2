// better-auth's HTTP endpoints with every refusal in JSON: better-auth itself answers a switched-off
// endpoint with a plain-text "Not Found" and an unknown one with an empty 404, which name nothing; and a
// NUL in a JSON body (an email "a@b\u0000") is refused before better-auth takes it to PostgreSQL (a 500 there).
import type { Database } from "@/server/db/client";
import { NUL_REFUSAL, nulPath } from "@/server/http/nul";
import { recordEdgeRefusal } from "@/server/http/edge-refusals";
import { authPathOf, SERVED_AUTH_PATHS } from "@/server/auth/auth-paths";
import { getAuth } from "@/server/auth/better-auth";
import { LOCKED_MESSAGE_START } from "@/server/auth/sign-in-hooks";

const SERVED = "POST /api/auth/sign-in/email, POST /api/auth/sign-out and GET /api/auth/get-session";

/** A JSON body's first NUL, as a refusal naming the field (PostgreSQL cannot hold NUL; better-auth would 500). */
async function refuseNulBody(request: Request): Promise<{ refusal: Response } | { request: Request }> {
  if (request.method !== "POST" || !(request.headers.get("content-type") ?? "").toLowerCase().includes("json")) return { request };
  const text = await request.text();
  let at: string | null = text.includes("\u0000") ? "body" : null;
  try {
    at = nulPath(JSON.parse(text)) ?? at;
  } catch {
    // not JSON: better-auth answers that itself
  }
  if (at !== null) return { refusal: Response.json({ code: "BAD_REQUEST", message: `${at || "body"}: ${NUL_REFUSAL}` }, { status: 400 }) };
  return { request: new Request(request, { body: text }) };
}

export async function handleAuthRequest(database: Database, incoming: Request): Promise<Response> {
  const response = await answerAuthRequest(database, incoming);
  if (response.status >= 400 && response.status < 500) await recordAuthRefusal(database, incoming, response);
  return response;
}

/**
 * Refusals of the served endpoints are recorded (server/http/edge-refusals.ts) — a cross-site sign-in, a bad
 * body, the per-address limit — but not twice: a wrong password has its own `auth.sign_in_failed` row and
 * a locked account its refusal-log row with the email (sign-in-hooks.ts). Unserved paths are 404s, not decisions.
 */
async function recordAuthRefusal(database: Database, request: Request, response: Response): Promise<void> {
  const path = authPathOf(request.url, "/api/auth");
  if (!SERVED_AUTH_PATHS.has(path)) return;
  const body = (await response.clone().json().catch(() => ({}))) as { code?: unknown; message?: unknown };
  const message = typeof body.message === "string" ? body.message : "";
  if (path === "/sign-in/email" && (response.status === 401 || message.startsWith(LOCKED_MESSAGE_START))) return;
  const reason = typeof body.code === "string" ? body.code.toLowerCase().slice(0, 60) : String(response.status);
  await recordEdgeRefusal(database, request, null, { route: `auth ${path}`, status: response.status, reason, message }, path === "/sign-in/email" ? "password" : undefined);
}

async function answerAuthRequest(database: Database, incoming: Request): Promise<Response> {
  const checked = await refuseNulBody(incoming);
  if ("refusal" in checked) return checked.refusal;
  const request = checked.request;
  const response = await (await getAuth(database)).handler(request);
  if (response.status < 400 || response.status >= 500 || (response.headers.get("content-type") ?? "").includes("json")) return response;
  const path = new URL(request.url).pathname.slice(0, 200);
  const text = (await response.text()).trim().slice(0, 200);
  const message = response.status === 404 ? `no auth endpoint ${request.method} ${path}: this server serves ${SERVED}` : `${request.method} ${path} refused: ${text || response.statusText || `status ${response.status}`}`;
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Response(JSON.stringify({ code: response.status === 404 ? "NOT_FOUND" : "REFUSED", message }), { status: response.status, headers });
}
