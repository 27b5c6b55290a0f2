// `npm run store:serve -- --port 4747 [--host 127.0.0.1]`: the store API (/v1/agl, /v1/traces) alone, in a
// plain node:http server around the same handler Next.js serves, with the watchdog timer. Point runners at
// it for the highest throughput (see docs/benchmarks.md "Store throughput"); the dashboard keeps running under
// `npm start` on the same DATABASE_URL. Key-less clients are let in only with
// LIGHTGATE_ALLOW_ANONYMOUS_STORE=1 on a loopback host, as in the main server.
import { steadyHeapGrowth } from "../../server/http/heap-growth";
import { resolveDbTarget } from "../../server/db/config";
import { deployMigrations } from "../../server/db/migrate";
import { serveHandler } from "../../server/store/http/node-server";
import { getStoreRuntime, startStoreBackground } from "../../server/store/runtime";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
steadyHeapGrowth();
const port = Number(arg("port", "4747"));
const host = arg("host", "127.0.0.1");
process.env.HOSTNAME = host; // what the anonymous-access rule checks

// Nothing pending (the dashboard migrated when it started): a read-only check, no lock on the file.
await deployMigrations(resolveDbTarget(process.env.DATABASE_URL)).catch((e: Error) => {
  console.error(`store:serve: ${e.message}`);
  process.exit(1);
});
const runtime = await getStoreRuntime();
await startStoreBackground();
const served = await serveHandler(runtime.serve, port, host);
console.log(`ready ${served.url} (store API: /v1/agl, /v1/traces)`);
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void served.close().then(() => process.exit(0)));
