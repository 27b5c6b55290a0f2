// better-auth's endpoints: sign-in, sign-out, session (everything else is switched off in server/auth/better-auth.ts).
import { handleAuthRequest } from "@/server/auth/http";
import { getDatabase } from "@/server/db/client";
import { apiRoute } from "@/server/http/api-route";

export const dynamic = "force-dynamic";

const handler = async (req: Request) => handleAuthRequest(await getDatabase(), req);

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: handler, POST: handler });
