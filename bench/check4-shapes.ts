// The per-case delta shapes check 4 is held to (bench/check4.ts and tests/unit/gate/check4-floor.test.ts):
// paired deltas candidate − parent with mean `gain` and a spread of about 0.1 on a 0–1 score, clamped to
// [−1, 1] like real score deltas. Left-skewed is what agent regressions look like — usually slightly better,
// sometimes much worse (a reflected exponential, skewness −2).
import { prng } from "@/server/gate/prng";

export type DeltaShape = "normal" | "left-skewed" | "heavy-tailed";
export const DELTA_SHAPES: readonly DeltaShape[] = ["normal", "left-skewed", "heavy-tailed"];
const SPREAD = 0.1;

/** A seeded source of paired deltas: `draw(shape, n, gain)` returns n deltas. */
export function deltaSource(seed: number) {
  const rand = prng(seed);
  const gauss = () => {
    let u = 0;
    while (u === 0) u = rand();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
  const one: Record<DeltaShape, () => number> = {
    normal: () => SPREAD * gauss(),
    "left-skewed": () => SPREAD * (1 + Math.log(1 - rand())),
    // Student's t with 3 degrees of freedom, scaled to the same standard deviation.
    "heavy-tailed": () => ((SPREAD / Math.sqrt(3)) * gauss()) / Math.sqrt((gauss() ** 2 + gauss() ** 2 + gauss() ** 2) / 3),
  };
  return (shape: DeltaShape, n: number, gain: number): number[] => Array.from({ length: n }, () => Math.max(-1, Math.min(1, gain + one[shape]())));
}
