// People for tests, signed in through better-auth's real HTTP handler (the same path the browser takes).
import { getAuth } from "@/server/auth/better-auth";
import { CLIENT_ADDRESS_HEADER } from "@/server/auth/client-address";
import { publicOrigin } from "@/server/auth/origin";
import { createUser } from "@/server/auth/users";
import type { RoleGrant } from "@/lib/auth/scopes";
import type { Database } from "@/server/db/client";

export const TEST_PASSWORD = "a-long-test-passphrase-42";
export const SYSTEM = { kind: "system" as const, id: "test", name: "Test setup", grants: [] };

let counter = 0;
export async function makePerson(database: Database, grants: RoleGrant[], name = `Person ${++counter}`) {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now().toString(36)}${counter}@example.org`;
  const user = await createUser(database, SYSTEM, { name, email, password: TEST_PASSWORD, grants });
  return { ...user, password: TEST_PASSWORD };
}

/** POSTs to /api/auth/<path> like the browser does; returns the response. */
export async function authRequest(database: Database, path: string, body: unknown, headers: Record<string, string> = {}) {
  const auth = await getAuth(database);
  const { origin } = publicOrigin();
  return auth.handler(
    new Request(`${origin}/api/auth/${path}`, {
      method: "POST",
      // A fresh client address per request, so the per-address sign-in limit only bites where a test wants it to.
      // scripts/serve.ts sets CLIENT_ADDRESS_HEADER from the socket; X-Forwarded-For is what a client may send.
      headers: { "content-type": "application/json", origin, ...randomAddress(), ...headers },
      body: JSON.stringify(body),
    }),
  );
}

function randomAddress(): Record<string, string> {
  const address = `198.51.100.${Math.floor(Math.random() * 250)}`;
  return { [CLIENT_ADDRESS_HEADER]: address, "x-forwarded-for": address };
}

/** Signs in with email and password; returns the Cookie header a browser would send next. */
export async function signIn(database: Database, email: string, password: string): Promise<string> {
  const res = await authRequest(database, "sign-in/email", { email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookieHeader(res);
}

export function cookieHeader(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}
