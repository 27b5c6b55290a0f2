// Liveness for load balancers and the e2e harness: answers once the server can reach its database.
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";
import { withBodyLimit } from "@/server/http/web-body";
import { healthResponse } from "@/server/system/health";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: withBodyLimit("gate", () => healthResponse(getDatabase)) });
