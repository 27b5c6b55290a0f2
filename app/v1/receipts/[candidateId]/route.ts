// GET /v1/receipts/<candidateId>: DSSE-signed in-toto statement of the candidate's receipt. The id is read
// from the request's URL by the handler (decoded once, 400 for a bad encoding).
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";
import { withBodyLimit } from "@/server/http/web-body";
import { serveReceiptPath } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET only: any body is refused (server/http/body-limits.ts).
const get = withBodyLimit("gate", async (request: Request) => serveReceiptPath(await getDatabase(), request));

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: get });
