// Stable identifiers a receipt is made of: exact resources, data snapshots, evaluators, actors.
import { z } from "zod";
import { HUMAN_ROLES, SERVICE_ROLES, hasScope, type Scope } from "@/lib/auth/scopes";
import { ZDigest } from "../digest";
import { ZExactName } from "./exact-names";

const ZExactId = ZExactName();

/** A resource (Agent Lightning `ResourcesUpdate`) pinned by id, version and content digest. */
export const ZResourceRef = z.object({ resourceId: ZExactId, version: z.number().int().min(1), digest: ZDigest });
export type ResourceRef = z.infer<typeof ZResourceRef>;

/** The candidate as declared before training: its reserved id, and its digest when it already exists. */
export const ZCandidateDeclaration = z.object({
  resourceId: ZExactId,
  version: z.number().int().min(1).optional(),
  digest: ZDigest.optional(),
});
export type CandidateDeclaration = z.infer<typeof ZCandidateDeclaration>;

export const ZSnapshotRef = z.object({ id: ZExactId, digest: ZDigest });
export type SnapshotRef = z.infer<typeof ZSnapshotRef>;

/** The evaluator by id and exact version (never `latest` or a range: publishing a new one must show as a change). */
export const ZEvaluatorRef = z.object({ id: ZExactId, version: ZExactId, digest: ZDigest });
export type EvaluatorRef = z.infer<typeof ZEvaluatorRef>;

export const ZRole = z.enum([...HUMAN_ROLES, ...SERVICE_ROLES]);

export const ZActorRef = z.object({ id: z.string().min(1), kind: z.enum(["user", "service"]), roles: z.array(ZRole) });
export type ActorRef = z.infer<typeof ZActorRef>;

export const APPROVAL_STEPS = ["canary", "default"] as const;
export type ApprovalStep = (typeof APPROVAL_STEPS)[number];
export const STEP_SCOPE: Record<ApprovalStep, Scope> = { canary: "approval:canary", default: "approval:default" };

/** Who may take a step: named actors and/or roles. A role that cannot hold the step's scope is refused. */
export function authoritySchema(step: ApprovalStep) {
  return z
    .object({ actorIds: z.array(z.string().min(1)), roles: z.array(ZRole) })
    .refine((a) => a.actorIds.length + a.roles.length > 0, { message: `name at least one actor or role who may approve the ${step} step` })
    .superRefine((a, ctx) => {
      for (const [i, role] of a.roles.entries()) {
        if (!hasScope([role], STEP_SCOPE[step])) {
          ctx.addIssue({ code: "custom", path: ["roles", i], message: `role "${role}" cannot hold the "${STEP_SCOPE[step]}" scope` });
        }
      }
    });
}
export type Authority = z.infer<ReturnType<typeof authoritySchema>>;
