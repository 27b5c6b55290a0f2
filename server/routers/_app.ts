// The root router: one line per feature router. Routers stay thin; domain code lives in server/<feature>/.
import { createCallerFactory, createTRPCRouter } from "@/server/trpc";
import { datasetsRouter } from "./datasets/_router";
import { feedbackRouter } from "./feedback/_router";
import { learningRouter } from "./learning/_router";
import { systemRouter } from "./system/_router";

export const appRouter = createTRPCRouter({
  system: systemRouter,
  datasets: datasetsRouter,
  feedback: feedbackRouter,
  learning: learningRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
