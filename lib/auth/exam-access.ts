// Who may read the locked held-out set: the exam is published by policy owners and checked by verifiers;
// the learner — an identity that trains (`training:run`) and neither writes nor verifies exams — never
// reads it, not even its inputs (release-gate spec: "the learner never reads the locked set or its
// expected answers"). Learners validate on a split of their own.
import type { Scope } from "./scopes";

/** True for a learner identity, given whether it holds a scope for some agent. */
export function isLearner(holds: (scope: Scope) => boolean): boolean {
  return holds("training:run") && !holds("policy:write") && !holds("canary:verify");
}

export const LOCKED_SET_REFUSAL = "the locked held-out set is never served to a trainer identity (one holding training:run without policy:write or canary:verify): the learner validates on its own split";
