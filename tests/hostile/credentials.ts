// Who the suite calls as: each demo person signed in over HTTP (their session cookie), an API key per
// service role (written straight into the database, as `npm run apikey` does), and a few forgeries.
import { HUMAN_ROLES, ROLE_SCOPES, SERVICE_ROLES, type HumanRole, type Role, type Scope, type ServiceRole } from "@/lib/auth/scopes";
import { DEMO_PASSWORD, demoEmail } from "@/lib/auth/demo-accounts";
import { createApiKey } from "@/server/auth/api-keys";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";

/** Headers that make a request come from someone; `cookie` marks a browser session (Origin matters). */
export type Identity = { label: string; headers: Record<string, string>; cookie: boolean };
export type Credentials = { origin: string; people: Record<HumanRole, Identity>; services: Record<ServiceRole, Identity>; anonymous: Identity; forged: Identity[] };

async function signIn(url: URL, origin: string, role: HumanRole): Promise<Identity> {
  const res = await fetch(new URL("/api/auth/sign-in/email", url), {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: demoEmail(role), password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`signing in as ${role} failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
  return { label: `session:${role}`, headers: { cookie }, cookie: true };
}

export async function obtainCredentials(url: URL, origin: string, databaseUrl: string): Promise<Credentials> {
  const people = {} as Record<HumanRole, Identity>;
  for (const role of HUMAN_ROLES) people[role] = await signIn(url, origin, role);
  const services = {} as Record<ServiceRole, Identity>;
  const database = await openDatabase(resolveDbTarget(databaseUrl));
  try {
    for (const role of SERVICE_ROLES) {
      const { token } = await createApiKey(database.db, { name: `hostile-${role}`, role, createdBy: "hostile-suite" });
      services[role] = { label: `key:${role}`, headers: { authorization: `Bearer ${token}` }, cookie: false };
    }
  } finally {
    await database.close();
  }
  const realKey = services.algorithm.headers.authorization!.slice("Bearer ".length);
  const forged: Identity[] = [
    { label: "forged:key-wrong-secret", headers: { authorization: `Bearer ${realKey.slice(0, -4)}AAAA` }, cookie: false },
    { label: "forged:bearer-garbage", headers: { authorization: "Bearer __proto__" }, cookie: false },
    { label: "forged:basic", headers: { authorization: "Basic YWRtaW46YWRtaW4=" }, cookie: false },
    { label: "forged:x-api-key", headers: { "x-api-key": "constructor" }, cookie: false },
    { label: "forged:session-garbage", headers: { cookie: "lightgate.session_token=AAAA.BBBB" }, cookie: true },
    { label: "forged:session-unsigned", headers: { cookie: `lightgate.session_token=${people.admin.headers.cookie!.split("=")[1]!.split(".")[0]}` }, cookie: true },
  ];
  return { origin, people, services, anonymous: { label: "anonymous", headers: {}, cookie: false }, forged };
}

/** Someone who holds `scope` for every agent: a person when a human role has it, else a service key. */
export function holderOf(creds: Credentials, scope: Scope | undefined): Identity {
  if (!scope) return creds.people.viewer;
  const has = (r: Role) => ROLE_SCOPES[r].includes(scope);
  const person = HUMAN_ROLES.find(has);
  if (person) return creds.people[person];
  const service = SERVICE_ROLES.find(has);
  return service ? creds.services[service] : creds.people.admin;
}

/** Everyone the suite can be, for "any identity" picks. */
export function everyone(creds: Credentials): Identity[] {
  return [...Object.values(creds.people), ...Object.values(creds.services), creds.anonymous, ...creds.forged];
}
