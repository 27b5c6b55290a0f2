// `npm run apikey -- create --role runner [--name "gpu-box-1"] [--agent helpdesk]… [--phase training]…`
// · `npm run apikey -- list` · `npm run apikey -- revoke ak-…`
// Operators' tool for store API keys (DATABASE_URL picks the database). The secret is printed once.
// --agent (repeatable) binds the key to those agents: it sees and serves only their rollouts; --phase
// (repeatable: training, locked_gate, canary, rollback, canary_stage) to those phases. Unbound by default.
import { SERVICE_ROLES, type ServiceRole } from "../lib/auth/scopes";
import { createApiKey, listApiKeys, revokeApiKey } from "../server/auth/api-keys";
import { openDatabase } from "../server/db/client";
import { SERVE_PHASES } from "../server/store/types";
import { resolveDbTarget } from "../server/db/config";
import { deployMigrations } from "../server/db/migrate";

const [command, ...rest] = process.argv.slice(2);
const flag = (name: string) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : undefined;
};
/** Every value of a repeatable flag (`--agent a --agent b`); null when it is not given. */
const flags = (name: string) => {
  const out = rest.flatMap((a, i) => (a === `--${name}` && i + 1 < rest.length ? [rest[i + 1]!] : []));
  return out.length ? out : null;
};
const usage = `usage: npm run apikey -- create --role ${SERVICE_ROLES.join("|")} [--name NAME] [--agent AGENT]… [--phase ${SERVE_PHASES.join("|")}]… | list | revoke KEY_ID`;

async function main(): Promise<number> {
  if (!command || !["create", "list", "revoke"].includes(command)) {
    console.error(usage);
    return 2;
  }
  const target = resolveDbTarget(process.env.DATABASE_URL);
  await deployMigrations(target);
  const database = await openDatabase(target);
  try {
    if (command === "create") {
      const role = flag("role") as ServiceRole | undefined;
      // Without a name the key is called after its role; `list` tells keys apart by id and prefix too.
      const name = flag("name") ?? `${role} key`;
      if (!role || !SERVICE_ROLES.includes(role) || !name.trim()) {
        console.error(usage);
        return 2;
      }
      const { token, key } = await createApiKey(database.db, { name, role, agents: flags("agent"), phases: flags("phase"), createdBy: "cli" });
      console.log(`created ${key.id} (${key.role}, "${key.name}", ${bindingOf(key)}). The key is shown once; store it now:\n\n  ${token}\n`);
      console.log(`Python runners: Authorization: Bearer ${key.prefix}_…  (see README "Connecting Agent Lightning")`);
    } else if (command === "list") {
      for (const k of await listApiKeys(database.db)) {
        console.log([k.id, k.role.padEnd(11), k.prefix, k.revokedAt ? "revoked" : "active ", k.lastUsedAt?.toISOString() ?? "never used", k.name, `(${bindingOf(k)})`].join("  "));
      }
    } else {
      const id = rest[0];
      if (!id) {
        console.error(usage);
        return 2;
      }
      const ok = await revokeApiKey(database.db, id);
      console.log(ok ? `revoked ${id}` : `no active key ${id}`);
      return ok ? 0 : 1;
    }
    return 0;
  } finally {
    await database.close();
  }
}

function bindingOf(k: { agents: string[] | null; phases: string[] | null }): string {
  return `agents: ${k.agents?.join(", ") ?? "all"}; phases: ${k.phases?.join(", ") ?? "all"}`;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`apikey: ${(e as Error).message}`);
    process.exit(1);
  },
);
