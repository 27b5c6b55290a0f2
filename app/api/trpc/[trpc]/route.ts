import { withBodyLimit } from "@/server/http/web-body";
import { handleTrpcRequest } from "@/server/trpc-http";

export const dynamic = "force-dynamic";

// Bodies are held to the tRPC limit (server/http/body-limits.ts) before tRPC reads them.
const handler = withBodyLimit("trpc", (req: Request) => handleTrpcRequest(req));

// tRPC answers every method itself, in its own error shape (405 METHOD_NOT_SUPPORTED for PUT and the like).
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
