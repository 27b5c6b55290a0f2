// The sign-in endpoints in a process of their own (`node --import tsx tests/helpers/processes/auth-server.ts
// --port N`, DATABASE_URL naming the database), answered as the product's route answers them (refusals recorded):
// several of them on one database are several server processes.
import { handleAuthRequest } from "@/server/http/auth-endpoints";
import { withClientAddress } from "@/server/auth/client-address";
import { getDatabase } from "@/server/db/client";
import { serveFetch } from "../auth-server";

const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
const database = await getDatabase();
const served = await serveFetch(
  (request) =>
    handleAuthRequest(database, withClientAddress(request, 0)).catch((e: unknown) => {
      console.error(`auth-server: ${(e as Error).stack ?? String(e)}`); // the test prints this process's output
      throw e;
    }),
  { trustedProxyHops: 0, port },
);
console.log(`ready http ${served.url} (process ${process.pid})`);
process.once("SIGTERM", () => void served.close().then(() => process.exit(0)));
