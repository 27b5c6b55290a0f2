// Environment, validated with zod once at start. Every variable Lightgate reads is listed here
// (and in the README's configuration table); an invalid value stops start-up with one clear line.
import { z } from "zod";
import { MAX_TRUSTED_PROXY_HOPS } from "./auth/client-address";
import { resolveDbTarget } from "./db/config";

const bool = z
  .enum(["0", "1", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  DATABASE_URL: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      try {
        resolveDbTarget(v);
      } catch (e) {
        ctx.addIssue({ code: "custom", message: (e as Error).message });
      }
    }),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOSTNAME: z.string().min(1).default("127.0.0.1"),
  /** Public origin of the dashboard, used for WebAuthn (its host is the relying-party id). */
  LIGHTGATE_ORIGIN: z.url().optional(),
  /** Start the demo: seeded data and a live training worker beside the web app. */
  LIGHTGATE_DEMO: bool,
  /** Let store clients without an API key in — only ever honoured on a loopback bind address. */
  LIGHTGATE_ALLOW_ANONYMOUS_STORE: bool,
  /** Seed one demo person per role (default: on when LIGHTGATE_DEMO is). */
  LIGHTGATE_DEMO_USERS: z.enum(["0", "1", "true", "false", "yes", "no", ""]).optional(),
  /** Signs session cookies; without it a random key is created once and kept in the database. */
  LIGHTGATE_AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Sign-in attempts allowed per minute from one client address. */
  LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).optional(),
  /** Reverse proxies in front of the server whose X-Forwarded-For is believed (0: use the socket address). */
  LIGHTGATE_TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(MAX_TRUSTED_PROXY_HOPS).default(0),
  /** The receipt/audit signing key (Ed25519, PKCS#8 PEM); without it, a key file beside the data. */
  LIGHTGATE_RECEIPT_PRIVATE_KEY: z.string().optional(),
  /** Where that key file is (default: beside the SQLite file, or LIGHTGATE_DATA_DIR for PostgreSQL). */
  LIGHTGATE_RECEIPT_KEY_FILE: z.string().optional(),
  /** With PostgreSQL, the directory for what is kept outside the database (key file, audit heads); default ./data. */
  LIGHTGATE_DATA_DIR: z.string().optional(),
  /** The file the audit log's signed heads are exported to (default: beside the key file). */
  LIGHTGATE_AUDIT_HEADS_FILE: z.string().optional(),
  /** How often the server exports them (0: only on npm run audit:verify). */
  LIGHTGATE_AUDIT_EXPORT_MINUTES: z.coerce.number().min(0).max(1440).default(5),
  LIGHTGATE_LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new EnvError(`invalid ${issue.path.join(".") || "environment"}: ${issue.message}`);
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * Demo mode when LIGHTGATE_DEMO is not set: on for the embedded default a newcomer gets from
 * `npm install && npm start` (no DATABASE_URL, bound to loopback), off everywhere else — demo people
 * have public passwords, so a shared database or a public bind address never gets them by default.
 */
export function defaultDemoMode(source: Record<string, string | undefined> = process.env): boolean {
  return !source.DATABASE_URL?.trim() && LOOPBACK.has(source.HOSTNAME?.trim() || "127.0.0.1");
}
