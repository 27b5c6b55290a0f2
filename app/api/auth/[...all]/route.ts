// better-auth's endpoints: sign-in, sign-out, session (everything else is switched off in server/auth/better-auth.ts).
// Bodies are held to the auth limit (server/http/body-limits.ts) before better-auth reads them.
import { withClientAddress } from "@/server/auth/client-address";
import { handleAuthRequest } from "@/server/http/auth-endpoints";
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";
import { withBodyLimit } from "@/server/http/web-body";

export const dynamic = "force-dynamic";

const handler = withBodyLimit("auth", async (req: Request) => handleAuthRequest(await getDatabase(), withClientAddress(req)));

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: handler, POST: handler });
