// `npm run apikey -- create --role runner [--name "gpu-box-1"]` · `npm run apikey -- list` · `npm run apikey -- revoke ak-…`
// Operators' tool for store API keys (DATABASE_URL picks the database). The secret is printed once.
import { SERVICE_ROLES, type ServiceRole } from "../lib/auth/scopes";
import { createApiKey, listApiKeys, revokeApiKey } from "../server/auth/api-keys";
import { openDatabase } from "../server/db/client";
import { resolveDbTarget } from "../server/db/config";
import { deployMigrations } from "../server/db/migrate";

const [command, ...rest] = process.argv.slice(2);
const flag = (name: string) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : undefined;
};
const usage = `usage: npm run apikey -- create --role ${SERVICE_ROLES.join("|")} [--name NAME] | list | revoke KEY_ID`;

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
      const { token, key } = await createApiKey(database.db, { name, role, createdBy: "cli" });
      console.log(`created ${key.id} (${key.role}, "${key.name}"). The key is shown once; store it now:\n\n  ${token}\n`);
      console.log(`Python runners: Authorization: Bearer ${key.prefix}_…  (see README "Connecting Agent Lightning")`);
    } else if (command === "list") {
      for (const k of await listApiKeys(database.db)) {
        console.log([k.id, k.role.padEnd(11), k.prefix, k.revokedAt ? "revoked" : "active ", k.lastUsedAt?.toISOString() ?? "never used", k.name].join("  "));
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

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`apikey: ${(e as Error).message}`);
    process.exit(1);
  },
);
