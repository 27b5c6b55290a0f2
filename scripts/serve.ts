// The Lightgate server process (started by scripts/start.ts): one node:http server in which the store API
// (/v1/agl/*, /v1/traces and the OTLP signals it refuses) takes a fast path straight to the store's handler,
// the gate API (/v1/gate/*) one straight to its handler (whole bodies: Next's proxy would truncate a large
// dataset), and everything else — dashboard, tRPC, auth, pointers, receipts — goes to Next.js. Runners send
// many small requests; going through Next's router for each one cost ~10× in throughput (see docs/benchmarks.md "Store throughput").
// The app/v1 route handlers stay, so plain `next start` serves the same API, only slower. The routing and
// the request-body limits live in server/process/server-listener.ts.
import next from "next";
import { callerIdentifier } from "../server/auth/body-caller";
import { steadyHeapGrowth } from "../server/http/heap-growth";
import { getDatabase } from "../server/db/client";
import { refusalLog } from "../server/audit/refusal-log";
import { serveGateApi } from "../server/gate-api/http";
import { createLightgateServer } from "../server/process/server-listener";
import { autoJudgeLoop } from "../server/auto-judge/step";
import { orchestrateGates } from "../server/receipts/gate-queue";
import { getStoreRuntime, startStoreBackground } from "../server/store/runtime";

steadyHeapGrowth();
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "127.0.0.1";

const app = next({ dev, dir: process.cwd(), hostname, port });
const handleNext = app.getRequestHandler();
await app.prepare();
const store = await getStoreRuntime();
await startStoreBackground();

const database = await getDatabase();
const gateApi = (request: Request) => serveGateApi(database, request);
// Who sends each body (its key, its session, else its address), for the per-caller shares of the body budgets.
const identify = callerIdentifier(async () => database);
const server = createLightgateServer(store.serve, (req, res) => handleNext(req, res), { fallbackHost: hostname, identify, gateApi });
server.listen(port, hostname, () => console.log(`Ready on http://${hostname}:${port}`));

// Gate runs are stepped here (leases keep several processes from stepping one run twice): the orchestrator
// only enqueues rollouts and judges what runners send back, so it is light enough to live beside the API.
const orchestrator = new AbortController();
if (process.env.LIGHTGATE_GATE_ORCHESTRATOR !== "0") void orchestrateGates(database, orchestrator.signal, { owner: `server-${process.pid}`, log: (line) => console.log(`[gates] ${line}`) });
// Versions published under a resources id an agent's policy owner asked to judge become candidates here, off
// the store's request path (server/auto-judge/step.ts); claims are compare-and-set, so several processes may run it.
if (process.env.LIGHTGATE_AUTO_JUDGE !== "0") void autoJudgeLoop(database, orchestrator.signal, { log: (line) => console.log(`[judge] ${line}`) });

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    orchestrator.abort();
    server.close();
    server.closeAllConnections();
    // The refusal log's open windows hold counts not yet written (server/audit/refusal-log.ts).
    void Promise.allSettled([app.close(), refusalLog(database).flush()]).finally(() => process.exit(0));
  });
}
