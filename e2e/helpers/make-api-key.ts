// `npx tsx e2e/helpers/make-api-key.ts <role> <name>`: prints a new store API key for the e2e server's
// database. Unlike `npm run apikey` it does not migrate (the running server already did, and holds the file).
import { createApiKey } from "../../server/auth/api-keys";
import { openDatabase } from "../../server/db/client";
import { resolveDbTarget } from "../../server/db/config";
import type { ServiceRole } from "../../lib/auth/scopes";

const [role, name] = process.argv.slice(2) as [ServiceRole, string];
const database = await openDatabase(resolveDbTarget(process.env.DATABASE_URL));
try {
  const { token } = await createApiKey(database.db, { name, role, createdBy: "e2e" });
  console.log(token);
} finally {
  await database.close();
}
