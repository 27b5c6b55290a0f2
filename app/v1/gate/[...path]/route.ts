// /v1/gate/*: the gate API for any Agent Lightning agent (server/gate-api). The handler reads the path from
// the request's URL (decoded once, 400 for a bad encoding); bodies are held to their path's limit —
// datasets 16 MiB, everything else 1 MiB (server/http/body-limits.ts). Under `npm start` the production
// server serves these paths on its fast path (server/process/server-listener.ts), past Next.js.
import { getDatabase } from "@/server/db/client";
import { serveGateApi } from "@/server/gate-api/http";
import { apiRoute } from "@/server/http/api-route";
import { withBodyLimit } from "@/server/http/web-body";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handler = withBodyLimit("by-path", async (request: Request) => serveGateApi(await getDatabase(), request));

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: handler, POST: handler });
