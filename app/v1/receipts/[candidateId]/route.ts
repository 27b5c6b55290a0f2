// GET /v1/receipts/<candidateId>: DSSE-signed in-toto statement of the candidate's receipt. The id is read
// from the request's URL by the handler (decoded once, 400 for a bad encoding).
import { getDatabase } from "@/server/db/client";
import { serveReceiptPath } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request) {
  return serveReceiptPath(await getDatabase(), request);
}
