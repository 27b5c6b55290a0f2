// The Lightgate server process (started by scripts/start.ts): one node:http server in which the store API
// (/v1/agl/*, /v1/traces and the OTLP signals it refuses) takes a fast path straight to the store's handler,
// and everything else — dashboard, tRPC, auth, pointers, receipts — goes to Next.js. Runners send many small
// requests; going through Next's router for each one cost ~10× in throughput (see README "Store throughput").
// The app/v1 route handlers stay, so plain `next start` serves the same API, only slower.
import http from "node:http";
import next from "next";
import { stampClientAddress, trustedProxyHops } from "../server/auth/client-address";
import { nodeListener } from "../server/store/http/node-server";
import { getStoreRuntime, startStoreBackground } from "../server/store/runtime";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "127.0.0.1";

const STORE_PATH = /^\/v1\/(agl\/|traces\/?(\?|$)|metrics\/?(\?|$)|logs\/?(\?|$)|development\/profiles\/?(\?|$))/;

const app = next({ dev, dir: process.cwd(), hostname, port });
const handleNext = app.getRequestHandler();
await app.prepare();
const store = await getStoreRuntime();
await startStoreBackground();
const handleStore = nodeListener(store.serve, hostname);
const proxyHops = trustedProxyHops();

const server = http.createServer((req, res) => {
  if (STORE_PATH.test(req.url ?? "")) return handleStore(req, res);
  // The client's address as this server saw it (never a client-written header), for the sign-in limit.
  stampClientAddress(req, proxyHops);
  void handleNext(req, res);
});
server.keepAliveTimeout = 30_000;
server.listen(port, hostname, () => console.log(`Ready on http://${hostname}:${port}`));

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void app.close().finally(() => process.exit(0));
  });
}
