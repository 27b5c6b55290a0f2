// Liveness for load balancers and the e2e harness: answers once the server can reach its database.
import { getDatabase } from "@/server/db/client";
import { withBodyLimit } from "@/server/http/web-body";

export const dynamic = "force-dynamic";

export const GET = withBodyLimit("gate", async () => {
  try {
    const { db } = await getDatabase();
    await db.$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" });
  } catch (e) {
    return Response.json({ status: "unavailable", detail: (e as Error).message }, { status: 503 });
  }
});
