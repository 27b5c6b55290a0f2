// The run lifecycle's guards (server/training/lifecycle.ts decideRun), every state × event: what a person and a
// worker may do to a run, what it records, and that nothing leaves finished, stopped or failed.
import { describe, expect, it } from "vitest";
import { FAMILY_ENDED_REASON } from "@/lib/training/run-status";
import { decideRun, RUN_STATUSES, type RunEvent, type RunEventKind, type RunStatus } from "@/server/training/lifecycle";

const now = new Date("2026-12-05T18:00:00Z");
const later = new Date(now.getTime() + 5_000);
const earlier = new Date(now.getTime() - 1);

const EVENTS: Record<RunEventKind, RunEvent> = {
  claim: { kind: "claim", workerId: "w1", leaseMs: 15_000 },
  pause: { kind: "pause", by: "Tess Trainer" },
  resume: { kind: "resume", by: "Tess Trainer" },
  stop: { kind: "stop", by: "Tess Trainer" },
  pauseOnStopCondition: { kind: "pauseOnStopCondition", workerId: "w1", reason: "Retry debt 328 is over the bound 100." },
  finish: { kind: "finish", workerId: "w1", familyEnded: false },
  fail: { kind: "fail", workerId: "w1", message: "runner error" },
};

/** Where each event takes a run in each state (null: refused); running and paused runs are held by w1, its lease live. */
const TABLE: Record<RunStatus, Record<RunEventKind, RunStatus | null>> = {
  queued: { claim: "running", pause: "paused", resume: null, stop: "stopped", pauseOnStopCondition: null, finish: null, fail: null },
  running: { claim: null, pause: "paused", resume: null, stop: "stopped", pauseOnStopCondition: "paused", finish: "finished", fail: "failed" },
  paused: { claim: null, pause: null, resume: "queued", stop: "stopped", pauseOnStopCondition: null, finish: "finished", fail: "failed" },
  finished: { claim: null, pause: null, resume: null, stop: null, pauseOnStopCondition: null, finish: null, fail: null },
  stopped: { claim: null, pause: null, resume: null, stop: null, pauseOnStopCondition: null, finish: null, fail: null },
  failed: { claim: null, pause: null, resume: null, stop: null, pauseOnStopCondition: null, finish: null, fail: null },
};

const facts = (status: string, over: Partial<{ workerId: string | null; leaseUntil: Date | null }> = {}) => {
  const held = status === "running" || status === "paused";
  return { id: "run-1", status, workerId: held ? "w1" : null, leaseUntil: held ? later : null, now, ...over };
};

describe("decideRun: every state × event", () => {
  for (const status of RUN_STATUSES) {
    for (const [kind, to] of Object.entries(TABLE[status]) as [RunEventKind, RunStatus | null][]) {
      it(`${status} + ${kind} → ${to ?? "refused"}`, () => {
        const d = decideRun(facts(status), EVENTS[kind]);
        if (to === null) {
          expect(d.allowed).toBe(false);
          expect(d.reason).toMatch(new RegExp(`^run run-1 is ${status}.*; it cannot be `));
        } else expect(d).toMatchObject({ allowed: true, from: status, to });
      });
    }
  }
});

describe("decideRun: guards and what a move records", () => {
  it("nothing leaves an ended state, and the refusal says so", () => {
    for (const status of ["finished", "stopped", "failed"] as const) {
      expect(decideRun(facts(status, { workerId: "w1", leaseUntil: later }), EVENTS.finish)).toEqual({ allowed: false, reason: `run run-1 is ${status}, and nothing leaves ${status}; it cannot be finished` });
    }
  });

  it("a person's stop wins over the worker's later pause on a stop condition, finish or failure", () => {
    const stopped = decideRun(facts("running"), EVENTS.stop);
    expect(stopped).toMatchObject({ allowed: true, to: "stopped", reason: "stopped by Tess Trainer", hold: "keep", requires: null });
    // The worker still holds the run until it notices: its own ending is refused all the same.
    for (const kind of ["pauseOnStopCondition", "finish", "fail"] as const) expect(decideRun(facts("stopped", { workerId: "w1", leaseUntil: later }), EVENTS[kind]).allowed).toBe(false);
  });

  it("a stop condition's pause never overrides a person's pause; finishing and failing end the work either way", () => {
    const paused = facts("paused");
    expect(decideRun(paused, EVENTS.pauseOnStopCondition)).toMatchObject({ allowed: false, reason: "run run-1 is paused; it cannot be paused by a stop condition" });
    expect(decideRun(paused, EVENTS.finish)).toMatchObject({ allowed: true, to: "finished", hold: "drop", requires: { heldBy: "w1" } });
  });

  it("a worker's events apply only to a run held by that worker", () => {
    for (const kind of ["pauseOnStopCondition", "finish", "fail"] as const) {
      expect(decideRun(facts("running", { workerId: "w2" }), EVENTS[kind])).toMatchObject({ allowed: false, reason: expect.stringMatching(/^run run-1 is running under worker w2, not w1; it cannot be/) });
      expect(decideRun(facts("running", { workerId: null }), EVENTS[kind])).toMatchObject({ allowed: false, reason: expect.stringMatching(/under no worker, not w1/) });
    }
  });

  it("a claim takes a queued run, or a running one whose lease lapsed (a killed worker), never a live lease", () => {
    const take = { workerId: "w1", until: new Date(now.getTime() + 15_000) };
    expect(decideRun(facts("queued"), EVENTS.claim)).toEqual({ allowed: true, from: "queued", to: "running", reason: null, hold: take, requires: null });
    expect(decideRun(facts("running", { workerId: "w0", leaseUntil: earlier }), EVENTS.claim)).toEqual({ allowed: true, from: "running", to: "running", reason: null, hold: take, requires: { leaseLapsedAt: now } });
    expect(decideRun(facts("running", { workerId: null, leaseUntil: null }), EVENTS.claim)).toMatchObject({ allowed: true, requires: { leaseLapsedAt: now } });
    expect(decideRun(facts("running", { workerId: "w0", leaseUntil: now }), EVENTS.claim)).toEqual({ allowed: false, reason: `run run-1 is running under worker w0 until ${now.toISOString()}; it cannot be claimed` });
  });

  it("records who and why: a person by name, a stop condition's sentence, the family's own end, the error", () => {
    expect(decideRun(facts("queued"), EVENTS.pause)).toMatchObject({ reason: "paused by Tess Trainer", hold: "keep" });
    expect(decideRun(facts("paused"), EVENTS.resume)).toMatchObject({ reason: null, hold: "drop" });
    expect(decideRun(facts("running"), EVENTS.pauseOnStopCondition)).toMatchObject({ reason: "stop condition: Retry debt 328 is over the bound 100.", hold: "drop" });
    expect(decideRun(facts("running"), { kind: "finish", workerId: "w1", familyEnded: true })).toMatchObject({ reason: FAMILY_ENDED_REASON });
    expect(decideRun(facts("running"), EVENTS.finish)).toMatchObject({ reason: null });
    const long = decideRun(facts("running"), { kind: "fail", workerId: "w1", message: "x".repeat(5_000) });
    expect(long.allowed && long.reason).toHaveLength(1_000);
  });

  it("a status the machine does not know is refused, naming it", () => {
    expect(decideRun(facts("archived"), EVENTS.stop)).toEqual({ allowed: false, reason: 'run run-1 is "archived", not a status of the run lifecycle; it cannot be stopped' });
  });
});
