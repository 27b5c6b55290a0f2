// better-auth's endpoints: sign-in, sign-out, session (everything else is switched off in server/auth/better-auth.ts).
// Bodies are held to the auth limit (server/http/body-limits.ts) before better-auth reads them.
import { getAuth } from "@/server/auth/better-auth";
import { withClientAddress } from "@/server/auth/client-address";
import { getDatabase } from "@/server/db/client";
import { withBodyLimit } from "@/server/http/web-body";

export const dynamic = "force-dynamic";

const handler = withBodyLimit("auth", async (req: Request) => {
  const auth = await getAuth(await getDatabase());
  return auth.handler(withClientAddress(req));
});

export { handler as GET, handler as POST };
