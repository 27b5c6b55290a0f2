// OTLP/HTTP signals; only traces are stored (server/store/http/otlp.ts), the others answer 501.
import { getStoreRuntime } from "@/server/store/runtime";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handle = async (request: Request) => (await getStoreRuntime()).handle(request);
// The store handler answers every method itself (405 naming the problem for what it does not serve).
export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
