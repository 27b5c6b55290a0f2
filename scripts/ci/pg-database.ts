// CI helper: `create NAME` makes a fresh database for this run; `drop NAME` drops it and every
// database the suites created under its name (NAME_*). Exits 2 when no server answers.
import pg from "pg";

const [cmd, name] = process.argv.slice(2);
const admin = process.env.LIGHTGATE_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
if (!name || !/^[a-z0-9_]+$/.test(name) || (cmd !== "create" && cmd !== "drop")) {
  console.error("usage: pg-database create|drop <name>");
  process.exit(64);
}
const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 3_000 });
try {
  await client.connect();
} catch (e) {
  console.error(`pg-database: no PostgreSQL at ${admin}: ${(e as Error).message}`);
  process.exit(2);
}
if (cmd === "create") {
  await client.query(`CREATE DATABASE "${name}"`);
  console.log(`pg-database: created ${name}`);
} else {
  const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2", [name, `${name}\\_%`]);
  for (const r of rows) await client.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
  console.log(`pg-database: dropped ${rows.length} database(s)`);
}
await client.end();
