// Moving names: an identifier that points at whatever is newest (or matches a range) instead of one
// artifact. The gate API refuses them in a parent, a candidate, training resources and an evaluator version.
import { describe, expect, it } from "vitest";
import { movingNameIn } from "@/server/gate/receipt/exact-names";

describe("movingNameIn", () => {
  it.each(["latest", "LATEST", "rs-latest", "policy@latest", "HEAD", "models/production", "default", "champion"])("finds the moving word in %j", (id) => {
    expect(movingNameIn(id)).not.toBeNull();
  });

  it.each([
    ["latestCandidate", "latest"],
    ["promptHead", "head"],
    ["last", "last"],
    ["model-nightly", "nightly"],
    ["trunk", "trunk"],
    ["recent", "recent"],
  ])("finds %j (camelCase humps and the words it missed)", (id, word) => {
    expect(movingNameIn(id)).toBe(word);
  });

  it.each(["^3", "~1.2", ">=2", "<4", "1.x", "2.X.x", "*", "1 || 2"])("refuses the version range %j", (range) => {
    expect(movingNameIn(range)).toBe(range);
  });

  it.each(["3", "1.4.2", "v2", "rs-ppo-u12", "foreign-prompt", "initial-support-desk-policy", "x", "agent-x", "ds-heldout-test", "lg-pin-0123456789abcdef"])("lets the exact name %j through", (id) => {
    expect(movingNameIn(id)).toBeNull();
  });
});
