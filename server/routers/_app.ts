// The root router: one line per feature router. Routers stay thin; domain code lives in server/<feature>/.
import { createCallerFactory, createTRPCRouter } from "@/server/trpc";
import { storeRouter } from "./store/_router";
import { datasetsRouter } from "./datasets/_router";
import { feedbackRouter } from "./feedback/_router";
import { learningRouter } from "./learning/_router";
import { trainersRouter } from "./trainers/_router";
import { sweepsRouter } from "./sweeps/_router";
import { externalRouter } from "./external/_router";
import { evaluationsRouter } from "./evaluations/_router";
import { systemRouter } from "./system/_router";
import { authRouter } from "./auth/_router";
import { peopleRouter } from "./people/_router";
import { passkeysRouter } from "./passkeys/_router";
import { botKeysRouter } from "./botKeys/_router";
import { auditRouter } from "./audit/_router";
import { approvalsRouter } from "./approvals/_router";
import { candidatesRouter } from "./candidates/_router";
import { agentsRouter } from "./agents/_router";
import { registriesRouter } from "./registries/_router";
import { verificationsRouter } from "./verifications/_router";

export const appRouter = createTRPCRouter({
  system: systemRouter,
  auth: authRouter,
  people: peopleRouter,
  passkeys: passkeysRouter,
  botKeys: botKeysRouter,
  audit: auditRouter,
  approvals: approvalsRouter,
  store: storeRouter,
  datasets: datasetsRouter,
  feedback: feedbackRouter,
  learning: learningRouter,
  trainers: trainersRouter,
  sweeps: sweepsRouter,
  external: externalRouter,
  candidates: candidatesRouter,
  agents: agentsRouter,
  registries: registriesRouter,
  evaluations: evaluationsRouter,
  verifications: verificationsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
