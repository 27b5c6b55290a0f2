// Which database a process talks to, decided once from DATABASE_URL.
// No URL (or a `file:` URL) means the embedded SQLite default under ./data.
import path from "node:path";

export type Dialect = "sqlite" | "postgresql";

export type DbTarget =
  | { dialect: "sqlite"; url: string; file: string }
  | { dialect: "postgresql"; url: string; database: string; host: string; port: number };

export const DEFAULT_SQLITE_URL = "file:./data/lightgate.db";

export function resolveDbTarget(databaseUrl: string | undefined, cwd = process.cwd()): DbTarget {
  const url = databaseUrl?.trim() || DEFAULT_SQLITE_URL;
  if (url.startsWith("file:")) {
    const raw = url.slice("file:".length).split("?")[0] ?? "";
    if (!raw) throw new Error(`DATABASE_URL "${url}" names no file`);
    const file = path.isAbsolute(raw) ? raw : path.resolve(cwd, raw);
    return { dialect: "sqlite", url: `file:${file}`, file };
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`DATABASE_URL is not a valid PostgreSQL URL`);
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "postgres";
    return {
      dialect: "postgresql",
      url,
      database,
      host: parsed.hostname || "localhost",
      port: Number(parsed.port || 5432),
    };
  }
  throw new Error(`DATABASE_URL must start with file:, postgres:// or postgresql:// (got "${url.split(":")[0]}:")`);
}

/** A URL safe to show on the status page and in logs: no password. */
export function redactUrl(target: DbTarget): string {
  if (target.dialect === "sqlite") return target.url;
  const u = new URL(target.url);
  if (u.password) u.password = "***";
  return u.toString();
}
