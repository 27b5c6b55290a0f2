// Who a refused request came from, for the refusal log (server/audit/refusal-log.ts): the identified actor if
// any, else what credential it presented (never the credential itself) and the client address scripts/serve.ts
// stamped on it.
import { getSessionCookie } from "better-auth/cookies";
import type { RefusalCaller } from "@/server/audit/refusal-log";
import type { Actor } from "./actor";
import { apiKeyOf } from "./api-keys";
import { SESSION_COOKIE_PREFIX } from "./session-cookie";
import { CLIENT_ADDRESS_HEADER } from "./client-address";

type HeaderReader = { get(name: string): string | null };

export function presentedCredential(headers: HeaderReader): RefusalCaller["credential"] {
  if (apiKeyOf(headers) !== null) return "api-key";
  const cookie = headers.get("cookie");
  return cookie && getSessionCookie(new Headers({ cookie }), { cookiePrefix: SESSION_COOKIE_PREFIX }) ? "session" : "none";
}

export function refusalCaller(headers: HeaderReader, actor: Actor | null): RefusalCaller {
  const address = headers.get(CLIENT_ADDRESS_HEADER);
  return { actor, credential: presentedCredential(headers), address: address ? address.slice(0, 64) : null };
}
