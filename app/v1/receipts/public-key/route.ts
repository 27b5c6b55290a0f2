// GET /v1/receipts/public-key: the Ed25519 public key (PEM) that verifies exported receipts.
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";
import { handlePublicKeyRequest } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: async () => handlePublicKeyRequest(await getDatabase()) });
