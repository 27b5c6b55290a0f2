// GET /v1/receipts/<candidateId>: DSSE-signed in-toto statement of the candidate's receipt.
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";
import { handleReceiptRequest } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

async function get(request: Request, ctx: { params: Promise<{ candidateId: string }> }) {
  const { candidateId } = await ctx.params;
  return handleReceiptRequest(await getDatabase(), request, candidateId);
}

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: get });
