// The root router: one line per feature router. Routers stay thin; domain code lives in server/<feature>/.
import { createCallerFactory, createTRPCRouter } from "@/server/trpc";
import { storeRouter } from "./store/_router";
import { systemRouter } from "./system/_router";

export const appRouter = createTRPCRouter({
  system: systemRouter,
  store: storeRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
