// OTLP/HTTP signals; only traces are stored (server/store/http/otlp.ts), the others answer 501.
import { getStoreRuntime } from "@/server/store/runtime";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handle = async (request: Request) => (await getStoreRuntime()).handle(request);
export { handle as POST, handle as GET };
