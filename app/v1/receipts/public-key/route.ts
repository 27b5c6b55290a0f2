// GET /v1/receipts/public-key: the Ed25519 public key (PEM) that verifies exported receipts.
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";
import { withBodyLimit } from "@/server/http/web-body";
import { handlePublicKeyRequest } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET only: any body is refused (server/http/body-limits.ts).
const get = withBodyLimit("gate", async (request: Request) => handlePublicKeyRequest(await getDatabase(), request));

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: get });
