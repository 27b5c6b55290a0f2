// Who served a candidate's locked gate, and how its cases were scored — for the candidate page. A
// `runner_reward` evaluator takes each case's score from the runner's own reward span, so the page says so and
// names the runner identities it trusted; an `expected_output` evaluator scores what was served against the
// case's expected output, whatever the runner said about itself.
import type { Database } from "@/server/db/client";
import { ZScoringSpec } from "@/server/gate/evidence/gate-rollouts";
import { servingShares, type ServerShare } from "@/server/gate/evidence/serving";
import type { EvaluatorRef } from "@/server/gate/receipt/refs";
import type { Stage1 } from "@/server/gate/receipt/stage1";
import { pinnedEvaluatorBody } from "./gate-run/context";
import { parseResult } from "./gate-run/judge";

export type LockedGateServing = {
  evaluator: string;
  /** The scoring of the evaluator that judged (stage 1's pin before any run); null when the registry holds no readable entry for it. */
  scoring: "runner_reward" | "expected_output" | null;
  outputAttribute: string | null;
  /** The gate run whose locked gate the receipt holds (null: none ran through runners here). */
  gateRunId: string | null;
  /** Each identity that served a locked-gate rollout, with its key's name and role; not counted ones say why. */
  servers: (ServerShare & { name: string | null; role: string | null })[];
};

/** `judgedWith`: the evaluator the held stage 3 records as having produced it (a re-run's may differ from stage 1's). */
export async function lockedGateServing(database: Database, candidateId: string, stage1: Stage1, stage3Digest: string | null, judgedWith: EvaluatorRef | null = null): Promise<LockedGateServing> {
  const db = database.db;
  const evaluator = judgedWith ?? stage1.evaluator;
  const spec = ZScoringSpec.safeParse(await pinnedEvaluatorBody(db, { agent: stage1.agent, evaluator }));
  const base = {
    evaluator: `${evaluator.id}@${evaluator.version}`,
    scoring: spec.success ? spec.data.scoring : null,
    outputAttribute: spec.success && spec.data.scoring === "expected_output" ? spec.data.output_attribute : null,
  };
  // The run that sealed the stage 3 the receipt holds, else the latest admission run (still running).
  const run =
    (stage3Digest ? await db.gateRun.findFirst({ where: { candidateId, linkDigest: stage3Digest }, select: { id: true } }) : null) ??
    (await db.gateRun.findFirst({ where: { candidateId, kind: "admission" }, orderBy: [{ requestedAt: "desc" }, { id: "desc" }], select: { id: true } }));
  if (!run) return { ...base, gateRunId: null, servers: [] };
  const tasks = await db.gateRunTask.findMany({ where: { gateRunId: run.id, phase: "locked_gate" }, select: { result: true } });
  const shares = servingShares(tasks.flatMap((t) => {
    const r = parseResult(t.result);
    return r && r.kind === "locked_gate" ? [r] : [];
  }));
  const keys = new Map((await db.apiKey.findMany({ where: { id: { in: shares.map((s) => s.identity) } }, select: { id: true, name: true, role: true } })).map((k) => [k.id, k]));
  return { ...base, gateRunId: run.id, servers: shares.map((s) => ({ ...s, name: keys.get(s.identity)?.name ?? null, role: keys.get(s.identity)?.role ?? null })) };
}
