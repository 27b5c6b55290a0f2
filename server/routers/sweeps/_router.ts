import { createTRPCRouter } from "@/server/trpc";
import { getSweepRoute } from "./get-sweep";
import { listSweepsRoute } from "./list-sweeps";
import { startSweepRoute } from "./start-sweep";

export const sweepsRouter = createTRPCRouter({ start: startSweepRoute, list: listSweepsRoute, get: getSweepRoute });
