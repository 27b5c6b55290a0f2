// `npm run test:promotion-model -- --runs 2000 [--seed N] [--extra-steps K] [--dialect sqlite|postgresql]`: the
// promotion model test (tests/integration/promotion/) at nightly size. CI runs it at 10 sequences per dialect
// on a fixed seed as part of `npm test`; this runs more, on any seed, and prints what the sequences reached.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "2000" }, seed: { type: "string" }, "extra-steps": { type: "string", default: "10" }, dialect: { type: "string" } },
});
const positive = (name: string, v: string | undefined) => {
  if (v !== undefined && !/^\d+$/.test(v)) throw new Error(`--${name}: a whole number, not ${JSON.stringify(v)}`);
  return v;
};
const seed = positive("seed", values.seed) ?? String(Date.now() % 2 ** 31);
const files = ["sqlite", "postgresql"].filter((d) => !values.dialect || d === values.dialect).map((d) => `tests/integration/promotion/model.${d}.test.ts`);
if (!files.length) throw new Error("--dialect: sqlite or postgresql");
console.log(`promotion model: ${values.runs} sequences per dialect, seed ${seed} (replay with --seed ${seed})`);
const run = spawnSync(path.join("node_modules", ".bin", "vitest"), ["run", ...files], {
  stdio: "inherit",
  env: { ...process.env, PROMOTION_MODEL_RUNS: positive("runs", values.runs), PROMOTION_MODEL_SEED: seed, PROMOTION_MODEL_EXTRA_STEPS: positive("extra-steps", values["extra-steps"]) },
});
process.exit(run.status ?? 1);
