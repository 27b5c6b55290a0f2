// GET /v1/receipts/<candidateId>: DSSE-signed in-toto statement of the candidate's receipt.
import { getDatabase } from "@/server/db/client";
import { withBodyLimit } from "@/server/http/web-body";
import { handleReceiptRequest } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET only: any body is refused (server/http/body-limits.ts).
export const GET = withBodyLimit("gate", async (request: Request, ctx: { params: Promise<{ candidateId: string }> }) => {
  const { candidateId } = await ctx.params;
  return handleReceiptRequest(await getDatabase(), request, candidateId);
});
