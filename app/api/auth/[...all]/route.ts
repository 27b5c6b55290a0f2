// better-auth's endpoints: sign-in, sign-out, session (everything else is switched off in server/auth/better-auth.ts).
import { getAuth } from "@/server/auth/better-auth";
import { withClientAddress } from "@/server/auth/client-address";
import { getDatabase } from "@/server/db/client";

export const dynamic = "force-dynamic";

async function handler(req: Request) {
  const auth = await getAuth(await getDatabase());
  return auth.handler(withClientAddress(req));
}

export { handler as GET, handler as POST };
