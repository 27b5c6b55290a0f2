import { actorCan } from "@/server/auth/actor";
import { badInput, DomainError } from "@/server/errors";
import { recordVerification } from "@/server/gate-api/verifications";
import { scopedProcedure } from "@/server/trpc";
import { ZRecordHumanVerificationInput, ZRecordHumanVerificationOutput } from "./record-human-verification.types";

// A person's verification of one canary outcome from the dashboard: the same record and rules as
// POST /v1/gate/verifications with method "human".
export const recordHumanVerificationRoute = scopedProcedure("canary:verify", { agentInput: "agent" })
  .input(ZRecordHumanVerificationInput)
  .output(ZRecordHumanVerificationOutput)
  .mutation(({ ctx, input }) =>
    recordVerification(ctx.database, ctx.actor, { rollout_id: input.rolloutId, method: "human", matched: input.matched, confidence: input.confidence, observed: input.observed, note: input.note }, (agent) => {
      if (agent !== input.agent) throw badInput("agent", `rollout ${input.rolloutId} belongs to a gate run of another agent`);
      if (!actorCan(ctx.actor, "canary:verify", agent)) throw new DomainError("FORBIDDEN", `${ctx.actor.name} lacks the "canary:verify" scope for agent "${agent}"`);
    }),
  );
