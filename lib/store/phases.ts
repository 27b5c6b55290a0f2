// The phases a rollout can belong to, shared by the store (who sees and serves what) and identity (what a
// runner key may be bound to serve) — a fact of the wire's metadata, so it lives below both.

/** The gate's phases: served by runner identities only, never seen by the learner (algorithm keys). */
export const GATE_PHASES = ["locked_gate", "canary", "rollback", "canary_stage"] as const;
export type GatePhase = (typeof GATE_PHASES)[number];
/** What a runner key may be bound to serve: training rollouts (no gate phase) and each gate phase. */
export const SERVE_PHASES = ["training", ...GATE_PHASES] as const;
export type ServePhase = (typeof SERVE_PHASES)[number];
export const isGatePhase = (phase: string | null | undefined): phase is GatePhase => (GATE_PHASES as readonly (string | null | undefined)[]).includes(phase);
