import { createTRPCRouter } from "@/server/trpc";
import { listRegistryRoute } from "./list-registry";
import { publishRegistryEntryRoute } from "./publish-registry-entry";

export const registriesRouter = createTRPCRouter({ list: listRegistryRoute, publish: publishRegistryEntryRoute });
