// A bare store server (node:http around the same handler Next.js serves) for checks that must kill and
// restart a server process quickly: `tsx scripts/store/serve.ts --port 3311`. Uses DATABASE_URL, migrates
// first, and lets key-less clients in on loopback only (LIGHTGATE_ALLOW_ANONYMOUS_STORE semantics).
import { openDatabase } from "../../server/db/client";
import { resolveDbTarget } from "../../server/db/config";
import { deployMigrations } from "../../server/db/migrate";
import { createStore } from "../../server/store";
import { createStoreHttpHandler } from "../../server/store/http/handler";
import { serveHandler } from "../../server/store/http/node-server";

const portArg = process.argv.indexOf("--port");
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 3311;
const target = resolveDbTarget(process.env.DATABASE_URL);
await deployMigrations(target);
const database = await openDatabase(target);
const store = createStore(database);
const handle = createStoreHttpHandler({ store, db: database.db, allowAnonymous: true });
const served = await serveHandler(handle, port, "127.0.0.1");
console.log(`ready ${served.url}`);
