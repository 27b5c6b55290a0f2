import { handleTrpcRequest } from "@/server/trpc-http";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return handleTrpcRequest(req);
}

export { handler as GET, handler as POST };
