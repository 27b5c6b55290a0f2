// npm run bench:gate — the gate for one candidate with 10,000 rollouts / 1,000,000 spans' worth of rollups.
// Prints the median and worst of several runs (target: well under 2 s), plus what ingest and sealing cost.
import { performance } from "node:perf_hooks";
import { familyCountsOf, type StoreSpan } from "@/server/gate/evidence/spans";
import { NO_SIGNED_DECISIONS } from "@/server/gate/receipt/signed-decisions";
import { evaluateGate } from "@/server/gate/gate";
import { sealStage } from "@/server/gate/receipt/seal";
import { ZStage2, type RolloutRollup, type Stage2 } from "@/server/gate/receipt/stage2";
import type { Receipt } from "@/server/gate/receipt/view";
import { POLICY, T0, VERSIONS, iso } from "@/server/gate/reference/common";
import { sealReference } from "@/server/gate/reference/four-candidates";
import { rawCandidate, REFERENCE_SPECS } from "@/server/gate/reference/raw-evidence";
import { receiptView } from "@/server/gate/receipt/view";
import { benchThroughDatabase } from "./gate-db";
import { ROLLOUTS, rollups, SPANS_PER_ROLLOUT } from "./rollup-fixture";

const spanCount = (rs: RolloutRollup[]) => rs.reduce((s, r) => s + r.attempts.reduce((t, a) => t + Object.values(a.families).reduce((u, n) => u + n, 0), 0), 0);
const time = <T>(fn: () => T): [T, number] => {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

// A receipt: the reference candidate A's stages, with stage 2 replaced by the generated rollups.
const base = receiptView(sealReference(rawCandidate(REFERENCE_SPECS.A)));
const now = new Date((T0 + 9 * 3600) * 1000);
let stage2: Stage2 = base.stage2!;
for (const defects of [false, true]) {
  const [rolls, genMs] = time(() => rollups(defects));
  stage2 = { windows: base.stage2!.windows, dataCutoff: base.stage2!.dataCutoff, rollouts: rolls, versions: VERSIONS };
  const receipt: Receipt = { ...base, stage2 };
  console.log(`${defects ? "with defects" : "clean"}: ${rolls.length} rollouts, ${spanCount(rolls).toLocaleString("en")} spans' worth of rollups (generated in ${ms(genMs)})`);
  evaluateGate({ receipt, policy: POLICY, currentVersions: VERSIONS, now, decisions: NO_SIGNED_DECISIONS }); // warm-up (JIT)
  const runs: number[] = [];
  let verdict = "";
  for (let i = 0; i < 7; i++) {
    const [report, t] = time(() => evaluateGate({ receipt, policy: POLICY, currentVersions: VERSIONS, now, decisions: NO_SIGNED_DECISIONS }));
    runs.push(t);
    const { coverage, retryDebt } = report.evidence;
    verdict = `${report.verdict}; coverage ${coverage.fullyCovered}/${coverage.considered}; retry debt ${retryDebt.debt}`;
  }
  runs.sort((a, b) => a - b);
  console.log(`  gate (evidence + 7 checks + freshness + verdict): median ${ms(runs[3]!)}, worst ${ms(runs.at(-1)!)} over 7 runs — ${verdict}`);
}

const [, parseMs] = time(() => ZStage2.parse(stage2));
console.log(`zod parse of stage 2 (e.g. rollups read back from the database): ${ms(parseMs)}`);
const chain = sealReference(rawCandidate(REFERENCE_SPECS.A)).slice(0, 1);
const [, sealMs] = time(() => sealStage(chain, "stage2", stage2, iso(T0 + 5 * 3600)));
console.log(`sealing stage 2 once (validate + RFC 8785 + sha-256): ${ms(sealMs)}`);

// Ingest side: classifying 1,000,000 raw spans into family counts, one rollout (100 spans) at a time.
const names: [string, Record<string, unknown>][] = [
  ["openai.chat.completion", { "gen_ai.request.model": "m" }],
  ["execute_tool lookup_ticket", { "gen_ai.tool.name": "lookup_ticket" }],
  ["execute_tool update_ticket", { "gen_ai.tool.name": "update_ticket" }],
  ["agentlightning.message", {}],
  ["agentlightning.annotation", { "agentlightning.reward.0.name": "primary", "agentlightning.reward.0.value": 0.7 }],
];
const batch: StoreSpan[] = Array.from({ length: SPANS_PER_ROLLOUT }, (_, k) => {
  const [name, attributes] = names[k % names.length]!;
  return { rollout_id: "ro-x", attempt_id: "at-x", sequence_id: k + 1, name, attributes };
});
const [, ingestMs] = time(() => {
  for (let i = 0; i < ROLLOUTS; i++) familyCountsOf(batch);
});
console.log(`ingest: span → family for 1,000,000 spans: ${ms(ingestMs)} (${((ROLLOUTS * SPANS_PER_ROLLOUT) / (ingestMs / 1000) / 1e6).toFixed(1)} M spans/s)`);

await benchThroughDatabase(stage2.rollouts);
process.exit(0);
