import { createTRPCRouter } from "@/server/trpc";
import { statusRoute } from "./status";

export const systemRouter = createTRPCRouter({ status: statusRoute });
