import { createTRPCRouter } from "@/server/trpc";
import { meRoute } from "./me";
import { setupStatusRoute } from "./setup-status";
import { createFirstAdminRoute } from "./create-first-admin";

export const authRouter = createTRPCRouter({ me: meRoute, setupStatus: setupStatusRoute, createFirstAdmin: createFirstAdminRoute });
