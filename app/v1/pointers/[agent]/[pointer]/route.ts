// GET /v1/pointers/<agent>/approved-default | latest-candidate | history[?at=<ISO time>]
import { getDatabase } from "@/server/db/client";
import { withBodyLimit } from "@/server/http/web-body";
import { handlePointerRequest } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET only: any body is refused (server/http/body-limits.ts).
export const GET = withBodyLimit("gate", async (request: Request, ctx: { params: Promise<{ agent: string; pointer: string }> }) => {
  const { agent, pointer } = await ctx.params;
  return handlePointerRequest(await getDatabase(), request, decodeURIComponent(agent), pointer);
});
