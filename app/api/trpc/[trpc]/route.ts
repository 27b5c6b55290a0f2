import { withBodyLimit } from "@/server/http/web-body";
import { handleTrpcRequest } from "@/server/trpc-http";

export const dynamic = "force-dynamic";

// Bodies are held to the tRPC limit (server/http/body-limits.ts) before tRPC reads them.
const handler = withBodyLimit("trpc", (req: Request) => handleTrpcRequest(req));

export { handler as GET, handler as POST };
