// Liveness for load balancers and the e2e harness: answers once the server can reach its database.
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";

export const dynamic = "force-dynamic";

async function get() {
  try {
    const { db } = await getDatabase();
    await db.$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" });
  } catch (e) {
    return Response.json({ status: "unavailable", detail: (e as Error).message }, { status: 503 });
  }
}

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: get });
