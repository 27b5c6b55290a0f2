// GET /v1/receipts/public-key: the Ed25519 public key (PEM) that verifies exported receipts.
import { getDatabase } from "@/server/db/client";
import { handlePublicKeyRequest } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request) {
  return handlePublicKeyRequest(await getDatabase(), request);
}
