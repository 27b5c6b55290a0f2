// "Missing evidence" for property tests: holes punched into a receipt's records (never whole new records).
import fc from "fast-check";
import { PIN_NAMES, type PinName } from "@/server/gate/receipt/stage3";
import type { Receipt } from "@/server/gate/receipt/view";

export type Hole =
  | { kind: "span"; rollout: number; family: number }
  | { kind: "reason"; rollout: number }
  | { kind: "case"; index: number; side: "candidate" | "parent" }
  | { kind: "verification"; outcome: number }
  | { kind: "resolution"; pin: PinName }
  | { kind: "rollback" }
  | { kind: "approval" }
  | { kind: "lockedGate" }
  | { kind: "canary" };

export const holeArb: fc.Arbitrary<Hole> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("span" as const), rollout: fc.nat(119), family: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("reason" as const), rollout: fc.nat(119) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("case" as const), index: fc.nat(59), side: fc.constantFrom("candidate" as const, "parent" as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("verification" as const), outcome: fc.nat(19) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("resolution" as const), pin: fc.constantFrom(...PIN_NAMES) }) },
  fc.constant({ kind: "rollback" as const }),
  fc.constant({ kind: "approval" as const }),
  fc.constant({ kind: "lockedGate" as const }),
  fc.constant({ kind: "canary" as const }),
);

/** Punches the holes into a copy of `receipt`. */
export function punch(receipt: Receipt, holes: readonly Hole[]): Receipt {
  const r = structuredClone(receipt);
  const families = r.stage1.expectedEvidence.spanFamilies;
  const dropCases = { candidate: new Set<string>(), parent: new Set<string>() };
  const caseIds = r.stage3?.lockedGate?.parent.cases.map((c) => c.caseId) ?? [];
  for (const h of holes) {
    if (h.kind === "span") {
      const attempts = r.stage2?.rollouts[h.rollout]?.attempts ?? [];
      const latest = attempts.reduce<(typeof attempts)[number] | undefined>((a, b) => (!a || b.sequenceId > a.sequenceId ? b : a), undefined);
      if (latest) delete latest.families[families[h.family % families.length]!];
    }
    if (h.kind === "reason") for (const a of r.stage2?.rollouts[h.rollout]?.attempts ?? []) if (a.sequenceId > 1) a.reason = null;
    if (h.kind === "case" && caseIds[h.index]) dropCases[h.side].add(caseIds[h.index]!);
    if (h.kind === "verification") {
      const o = r.stage3?.canary?.outcomes[h.outcome];
      if (o) o.verification = { method: "unverified", reason: "verification not recorded" };
    }
    if (h.kind === "resolution" && r.stage3) delete r.stage3.resolution[h.pin];
    if (h.kind === "rollback" && r.stage3) delete r.stage3.rollbackTest;
    if (h.kind === "approval") r.approvals = [];
    if (h.kind === "lockedGate" && r.stage3) delete r.stage3.lockedGate;
    if (h.kind === "canary" && r.stage3) delete r.stage3.canary;
  }
  const gate = r.stage3?.lockedGate;
  if (gate) {
    gate.candidate.cases = gate.candidate.cases.filter((c) => !dropCases.candidate.has(c.caseId));
    gate.parent.cases = gate.parent.cases.filter((c) => !dropCases.parent.has(c.caseId));
  }
  return r;
}
