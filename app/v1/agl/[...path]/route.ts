// The LightningStore REST API (/v1/agl/*): HTTP in, server/store/http out.
import { getStoreRuntime } from "@/server/store/runtime";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handle = async (request: Request) => (await getStoreRuntime()).handle(request);
export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
