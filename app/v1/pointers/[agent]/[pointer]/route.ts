// GET /v1/pointers/<agent>/approved-default | latest-candidate | canary | history[?at=<ISO time>]
// The names are read from the request's URL by the handler (decoded once, 400 for a bad encoding), not from
// Next.js's params, which may already be decoded.
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";
import { withBodyLimit } from "@/server/http/web-body";
import { servePointerPath } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET only: any body is refused (server/http/body-limits.ts).
const get = withBodyLimit("gate", async (request: Request) => servePointerPath(await getDatabase(), request));

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: get });
