// better-auth's HTTP endpoints with every refusal in JSON: better-auth itself answers a switched-off
// endpoint with a plain-text "Not Found" and an unknown one with an empty 404, which name nothing.
import type { Database } from "@/server/db/client";
import { getAuth } from "./better-auth";

const SERVED = "POST /api/auth/sign-in/email, POST /api/auth/sign-out and GET /api/auth/get-session";

export async function handleAuthRequest(database: Database, request: Request): Promise<Response> {
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
