// The stale-evidence rule: a changed input makes exactly the checks that depend on it stale.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digestOf } from "@/server/digest";
import { isFresh } from "@/server/gate/freshness";
import { POLICY, VERSIONS } from "@/server/gate/reference/common";
import { CHECK_IDS, CHECK_INPUTS, VERSION_KEYS, type CheckId, type VersionKey, type VersionSet } from "@/server/gate/versions";
import { judge, reference, statusOf } from "./fixtures";

/** `versions` with `key` changed in the way that matters for it (sets: a new member). */
function changed(versions: VersionSet, key: VersionKey): VersionSet {
  const next = structuredClone(versions);
  if (key === "permissions") next.permissions.push("refund:issue");
  else if (key === "destinations") next.destinations.push("crm:accounts");
  else if (key === "toolContracts") next.toolContracts.update_ticket = digestOf({ tool: "update_ticket", contract: 2 });
  else if (key === "parent" || key === "retryPolicy") next[key] = digestOf({ changed: key });
  else next[key] = `${next[key]}-next`;
  return next;
}

const affected = (keys: readonly VersionKey[]) => CHECK_IDS.filter((id) => CHECK_INPUTS[id].some((k) => keys.includes(k)));

describe("freshness", () => {
  const a = reference("A").receipt;

  it("is fresh against the versions the evidence was computed with", () => {
    expect(isFresh(a, VERSIONS, new Date("2026-03-02T18:00:00.000Z"), POLICY)).toEqual({ fresh: true, stale: [] });
  });

  it("a changed input makes exactly the affected checks stale, and the verdict falls back to QUARANTINED", () => {
    fc.assert(
      fc.property(fc.subarray([...VERSION_KEYS], { minLength: 1 }), (keys) => {
        const current = keys.reduce(changed, VERSIONS);
        const report = judge(a, { versions: current });
        const stale = report.checks.filter((c) => c.status === "stale").map((c) => c.id);
        expect(stale).toEqual(affected(keys));
        for (const c of report.checks) if (!stale.includes(c.id)) expect(c.status).toBe("pass");
        expect(report.verdict).toBe("QUARANTINED");
        expect(report.blocking.map((b) => b.check)).toEqual(stale);
      }),
    );
  });

  it("a changed evaluator version always makes check 4 stale, whatever it said before", () => {
    fc.assert(
      fc.property(fc.constantFrom("A" as const, "B" as const, "C" as const, "D" as const), fc.string({ minLength: 1 }), fc.boolean(), (name, version, worse) => {
        const r = reference(name).receipt;
        if (worse) r.stage3!.lockedGate!.candidate.cases = r.stage3!.lockedGate!.parent.cases;
        const before = statusOf(judge(r), 4);
        const current = { ...VERSIONS, evaluator: `support-desk-evaluator@${version}#changed` };
        const check4 = judge(r, { versions: current }).checks[3]!;
        expect(check4.status).toBe("stale");
        expect(check4.stale).toMatchObject({ was: before, reasons: [{ input: "evaluator" }] });
        expect(check4.explanation).toMatch(/^Stale: evaluator changed/);
      }),
      { numRuns: 40 },
    );
  });

  it.each([
    ["permissions", "new permission refund:issue not covered by this evidence"],
    ["destinations", "new destination crm:accounts not covered by this evidence"],
    ["modelServer", "model server changed"],
    ["retryPolicy", "retry policy changed"],
  ] as const)("an earlier canary never covers a new %s", (key, sentence) => {
    const report = judge(a, { versions: changed(VERSIONS, key) });
    expect(statusOf(report, 6)).toBe("stale");
    expect(report.checks[5]!.explanation).toContain(sentence);
  });

  it("narrowing permissions or destinations does not make a canary stale", () => {
    const current = { ...VERSIONS, permissions: VERSIONS.permissions.slice(1), destinations: [] };
    expect(isFresh(a, current, new Date("2026-03-02T18:00:00.000Z"), POLICY).fresh).toBe(true);
  });

  it("evidence older than the policy allows goes stale by age", () => {
    const later = new Date(Date.parse(a.stage3!.computedAt) + 15 * 86400 * 1000);
    const f = isFresh(a, VERSIONS, later, POLICY);
    expect(f.stale).toEqual([{ check: 6, scope: "admission", reasons: [expect.objectContaining({ input: "age", maxAgeSeconds: 14 * 86400 })] }]);
    expect(judge(a, { now: later }).verdict).toBe("QUARANTINED");
  });

  it("late evidence on admitted rollouts makes exactly checks 2 and 3 stale, naming them", () => {
    const late = [{ rolloutId: "ro-late000001", change: "attempts 1 → 2, status succeeded → failed" }];
    const f = isFresh(a, VERSIONS, new Date("2026-03-02T18:00:00.000Z"), POLICY, late);
    expect(f.stale.map((s) => s.check)).toEqual([2, 3]);
    expect(f.stale[0]!.reasons).toEqual([{ input: "late-evidence", rollouts: ["ro-late000001"], sentence: expect.stringContaining("ro-late000001 (attempts 1 → 2") }]);
  });

  it("late evidence on a sealed gate run's rollout makes exactly the checks it fed stale, with its sentence", () => {
    const sentence = "late evidence: a new attempt for ro-gate00001 (locked_gate c-1) at 2026-03-02T17:00:00.000Z, after the seal at 2026-03-02T16:00:00.000Z";
    const late = [{ rolloutId: "ro-gate00001", change: "a new attempt", feeds: { scope: "admission" as const, checks: [4, 5] as const }, sentence }];
    const f = isFresh(a, VERSIONS, new Date("2026-03-02T18:00:00.000Z"), POLICY, late);
    expect(f.stale.map((s) => s.check)).toEqual([4, 5]);
    for (const s of f.stale) expect(s.reasons).toEqual([{ input: "late-evidence", rollouts: ["ro-gate00001"], sentence }]);
  });

  it("records, on each result, exactly the versions that check depends on", () => {
    for (const c of judge(a).checks) expect(Object.keys(c.versions).sort()).toEqual([...CHECK_INPUTS[c.id as CheckId]].sort());
  });
});
