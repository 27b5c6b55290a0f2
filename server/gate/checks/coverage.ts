// Check 2: every succeeded rollout has every span family declared before training.
import { fail, pass, plural, unavailable, type CheckInput, type CheckOutcome } from "./types";

export function checkCoverage({ evidence }: CheckInput): CheckOutcome {
  const c = evidence.coverage;
  const facts = {
    expectedFamilies: c.expectedFamilies,
    considered: c.considered,
    fullyCovered: c.fullyCovered,
    ratio: c.ratio,
    missingByFamily: c.missingByFamily,
    excluded: c.excluded,
    uncoveredSample: c.uncovered.slice(0, 20),
  };
  if (c.status === "unavailable") {
    const why = c.expectedFamilies.length
      ? "No succeeded rollout was recorded, so span coverage is unknown."
      : "No span families were declared, so coverage cannot be judged.";
    return unavailable(why, facts);
  }
  if (c.fullyCovered < c.considered) {
    const worst = Object.entries(c.missingByFamily)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([f, n]) => `${f} ×${n}`)
      .join(", ");
    return fail(`Only ${c.fullyCovered} of ${c.considered} succeeded rollouts carry every expected span family (missing: ${worst}).`, facts);
  }
  return pass(`All ${plural(c.considered, "succeeded rollout")} carry every expected span family (${c.expectedFamilies.join(", ")}).`, facts);
}
