// Accounts and sessions for people, through better-auth (email + password, httpOnly session cookies).
// One instance per open Database, so tests on several databases stay apart. Sign-up is off: people
// are created by the setup page, an admin, or the demo seeder (server/auth/users.ts), never by themselves.
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import type { Database } from "@/server/db/client";
import { servedAuthPathsOnly } from "./auth-paths";
import { newId } from "@/server/digest";
import { CLIENT_ADDRESS_HEADER } from "./client-address";
import { publicOrigin } from "./origin";
import { authSecret } from "./secret";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/lib/auth/password-policy";
import { SESSION_COOKIE_PREFIX } from "./session-cookie";
import { recordSignIn, refuseDisabledUser, signInGuards } from "./sign-in-hooks";

const AUTH_BASE_PATH = "/api/auth";
const ID_PREFIX: Record<string, string> = { user: "usr", session: "ses", account: "acc", verification: "ver", rateLimit: "rat" };

async function buildAuth(database: Database) {
  const { origin } = publicOrigin();
  const secret = await authSecret(database.db);
  return betterAuth({
    appName: "Lightgate",
    baseURL: origin,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: [origin],
    database: prismaAdapter(database.db, { provider: database.target.dialect === "sqlite" ? "sqlite" : "postgresql" }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    user: { additionalFields: { disabledAt: { type: "date", required: false, input: false } } },
    // Sessions live in the database and are looked up on every request (no cookie cache), so
    // deactivating a person or revoking a session takes effect at once.
    session: { modelName: "authSession", expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    account: { modelName: "authAccount" },
    verification: { modelName: "authVerification" },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: origin.startsWith("https:"),
      database: { generateId: ({ model }) => newId(ID_PREFIX[model] ?? model.slice(0, 3)) },
      // Never X-Forwarded-For itself (any client can write it): the address scripts/serve.ts resolved from
      // the socket and the trusted proxy hops (LIGHTGATE_TRUSTED_PROXY_HOPS), see client-address.ts.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    // Password guessing: a few sign-in attempts per minute per client address (LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE),
    // counted in the database (better-auth's atomic check-and-increment), so every process shares one count.
    rateLimit: {
      enabled: true,
      window: 60,
      max: 600,
      storage: "database",
      modelName: "authRateLimit",
      // Reading one's own session guesses nothing, and the dashboard reads it on every page: counting it would
      // be a database write per page view (the sign-in rule and the per-account lock are what stop guessing).
      customRules: { "/sign-in/email": { window: 60, max: signInAttemptsPerMinute() }, "/get-session": false },
    },
    telemetry: { enabled: false },
    // Only sign-in, sign-out and session reads are served (server/auth/auth-paths.ts). Everything else
    // better-auth offers would write people or passwords around our rules (password policy, audit log).
    plugins: [servedAuthPathsOnly(AUTH_BASE_PATH)],
    hooks: signInGuards(database, secret),
    databaseHooks: {
      session: {
        create: {
          before: (session) => refuseDisabledUser(database, session.userId),
          after: (session) => recordSignIn(database, session),
        },
      },
    },
  });
}

function signInAttemptsPerMinute(source: NodeJS.ProcessEnv = process.env): number {
  const n = Number(source.LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE ?? 10);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

export type Auth = Awaited<ReturnType<typeof buildAuth>>;

const instances = new WeakMap<Database, Promise<Auth>>();

export function getAuth(database: Database): Promise<Auth> {
  let auth = instances.get(database);
  if (!auth) {
    auth = buildAuth(database);
    instances.set(database, auth);
  }
  return auth;
}
