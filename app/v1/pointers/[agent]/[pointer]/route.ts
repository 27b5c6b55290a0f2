// GET /v1/pointers/<agent>/approved-default | latest-candidate | history[?at=<ISO time>]
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";
import { handlePointerRequest } from "@/server/receipts/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

async function get(request: Request, ctx: { params: Promise<{ agent: string; pointer: string }> }) {
  const { agent, pointer } = await ctx.params;
  return handlePointerRequest(await getDatabase(), request, decodeURIComponent(agent), pointer);
}

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: get });
