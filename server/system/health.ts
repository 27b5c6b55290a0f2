// Liveness for load balancers and the e2e harness: ok once the database answers. Public by design — it
// needs no credentials and says nothing but ok / unavailable and why.
import type { Database } from "@/server/db/client";

export async function healthResponse(open: () => Promise<Database>): Promise<Response> {
  try {
    const { db } = await open();
    await db.$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" });
  } catch (e) {
    return Response.json({ status: "unavailable", detail: (e as Error).message }, { status: 503 });
  }
}
