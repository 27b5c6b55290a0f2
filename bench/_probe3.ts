import { createSupportDesk, HARD_DESK_DISTRIBUTION } from "@/server/environments/support-desk";
import { evaluatePolicy, lockValidationSet } from "@/server/trainers/evaluate";
import { startFamily } from "@/server/trainers/families";
import { initialPolicy } from "@/server/trainers/policy";
const env = createSupportDesk({ variant: "text" });
const dist = HARD_DESK_DISTRIBUTION;
const val = lockValidationSet(env, dist, 200, "probe");
const family = process.argv[2] as "ppo-mlp";
const kind = family === "ppo-mlp" ? "mlp-softmax" : family === "dqn-mlp" ? "mlp-q" : "softmax-linear";
const config = JSON.parse(process.argv[4] ?? "{}");
const s = startFamily({ family, config, parent: initialPolicy(kind, env), environment: env, distribution: dist, seed: "probe", data: null, heldOut: null, validation: val, codeRevision: "0000000" });
const n = Number(process.argv[3] ?? 10);
const t0 = performance.now();
console.log(env.actions.length, "actions", env.featureNames.length, "features");
for (let i = 0; i < n; i++) {
  const u = await s.session.step();
  if ((i + 1) % 5 === 0) {
    const c = s.session.candidate() as unknown as { policy: never };
    const e = evaluatePolicy(env, c.policy, val);
    console.log(i + 1, e.meanReward.toFixed(3), e.successRate.toFixed(2), ((performance.now() - t0) / (i + 1)).toFixed(0), "ms/update", "train", (u.figures.meanEpisodeReward ?? 0).toFixed(3));
  }
}
