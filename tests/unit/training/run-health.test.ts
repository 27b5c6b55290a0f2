import { expect, it } from "vitest";
import { runHealth } from "@/server/training/queries";

const NOW = Date.parse("2026-11-30T01:00:00Z");
const at = (secondsAgo: number) => new Date(NOW - secondsAgo * 1000);
const run = (over: Partial<Parameters<typeof runHealth>[0]> = {}) => ({ status: "running", updatesDone: 10, updatesTotal: 30, parentHeldOutReward: 0.1, ...over });

it("is active while updates arrive, and estimates the rest from the recent pace", () => {
  const h = runHealth(run(), [0.2, 0.25, 0.3].map((y, i) => ({ heldOutReward: y, at: at(4 - 2 * i) })), NOW);
  expect(h).toMatchObject({ active: true, usefulProgress: true, secondsPerUpdate: 2, eta: { seconds: 40 } });
  // Two spans say little about the pace: the range is wide around the estimate.
  expect(h.eta!.low).toBeLessThan(40);
  expect(h.eta!.high).toBeGreaterThan(40);
  expect(h.progressNote).toBe("0.300 on the validation split vs the parent's 0.100");
});

it("reports active apart from useful progress: busy but not beating the parent, or falling", () => {
  expect(runHealth(run(), [{ heldOutReward: 0.05, at: at(2) }, { heldOutReward: 0.04, at: at(1) }], NOW)).toMatchObject({ active: true, usefulProgress: false });
  const falling = runHealth(run(), [{ heldOutReward: 0.6, at: at(2) }, { heldOutReward: 0.3, at: at(1) }], NOW);
  expect(falling).toMatchObject({ active: true, usefulProgress: false });
  expect(falling.progressNote).toMatch(/^falling/);
});

it("is not active when updates stopped arriving or the run is not running, and knows when it cannot tell", () => {
  expect(runHealth(run(), [{ heldOutReward: 0.2, at: at(300) }, { heldOutReward: 0.3, at: at(200) }], NOW)).toMatchObject({ active: false, usefulProgress: true });
  expect(runHealth(run({ status: "paused" }), [{ heldOutReward: 0.2, at: at(2) }, { heldOutReward: 0.3, at: at(1) }], NOW)).toMatchObject({ active: false, usefulProgress: false, eta: null });
  // A run a person stopped makes no more progress either, however good its last figures were.
  expect(runHealth(run({ status: "stopped" }), [{ heldOutReward: 0.2, at: at(2) }, { heldOutReward: 0.3, at: at(1) }], NOW)).toMatchObject({ active: false, usefulProgress: false, eta: null });
  expect(runHealth(run({ parentHeldOutReward: null }), [{ heldOutReward: 0.2, at: at(2) }, { heldOutReward: 0.3, at: at(1) }], NOW).usefulProgress).toBeNull();
  expect(runHealth(run(), [], NOW)).toMatchObject({ active: false, usefulProgress: null, eta: null });
  // One update gives no pace: no ETA rather than a guess.
  expect(runHealth(run(), [{ heldOutReward: 0.2, at: at(1) }], NOW)).toMatchObject({ active: true, eta: null, secondsPerUpdate: null });
});
