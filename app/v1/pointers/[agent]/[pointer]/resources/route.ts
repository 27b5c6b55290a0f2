// GET /v1/pointers/<agent>/approved-default | latest-candidate | canary /resources: the exact resources version
// the pointer names, with its digest (server/receipts/pointer-resources.ts). Names are read from the request's
// URL by the handler, as for the pointer itself.
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";
import { withBodyLimit } from "@/server/http/web-body";
import { servePointerPath } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET only: any body is refused (server/http/body-limits.ts).
const get = withBodyLimit("gate", async (request: Request) => servePointerPath(await getDatabase(), request));

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: get });
