// Liveness for load balancers and the e2e harness: answers once the server can reach its database.
import { getDatabase } from "@/server/db/client";
import { withBodyLimit } from "@/server/http/web-body";
import { healthResponse } from "@/server/system/health";

export const dynamic = "force-dynamic";

export const GET = withBodyLimit("gate", () => healthResponse(getDatabase));
