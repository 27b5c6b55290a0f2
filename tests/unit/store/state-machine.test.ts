// The pure state machine: status propagation with the retry policy, attempt reasons, watchdog verdicts,
// worker following, and the loopback rule for anonymous store access.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attemptReason, expectedAttemptsFrom, requeueCauseFor, rolloutStatusFromAttempt, watchdogVerdict, workerPatchForAttempt } from "@/server/store/state-machine";
import { anonymousAllowed } from "@/server/store/http/auth";
import { ATTEMPT_STATUSES } from "@/server/store/types";

describe("rolloutStatusFromAttempt", () => {
  it("copies preparing/running/succeeded and retries only listed statuses below max_attempts", () => {
    const policy = { max_attempts: 3, retry_condition: ["failed", "timeout"] as const };
    expect(rolloutStatusFromAttempt("running", 1, { ...policy, retry_condition: [...policy.retry_condition] })).toBe("running");
    expect(rolloutStatusFromAttempt("failed", 2, { ...policy, retry_condition: ["failed"] })).toBe("requeuing");
    expect(rolloutStatusFromAttempt("failed", 3, { ...policy, retry_condition: ["failed"] })).toBe("failed");
    expect(rolloutStatusFromAttempt("unresponsive", 1, { ...policy, retry_condition: ["failed"] })).toBe("failed");
    expect(rolloutStatusFromAttempt("failed", 1, { max_attempts: 1, retry_condition: [] })).toBe("failed");
  });

  it("never requeues at or beyond max_attempts (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ATTEMPT_STATUSES), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 }), fc.subarray([...ATTEMPT_STATUSES]), (status, seq, max, cond) => {
        const out = rolloutStatusFromAttempt(status, seq, { max_attempts: max, retry_condition: cond });
        if (out === "requeuing") expect(seq < max && cond.includes(status)).toBe(true);
        if (seq >= max) expect(out).not.toBe("requeuing");
      }),
    );
  });
});

describe("attempt reasons", () => {
  it("first, planned resamples, then the requeue cause or manual", () => {
    expect(attemptReason(1, 4, "retry_after_failed")).toBe("first");
    expect(attemptReason(3, 4, "retry_after_failed")).toBe("expected_resample");
    expect(attemptReason(5, 4, "retry_after_timeout")).toBe("retry_after_timeout");
    expect(attemptReason(2, 1, null)).toBe("manual");
    expect(requeueCauseFor("unresponsive")).toBe("retry_after_unresponsive");
    expect(requeueCauseFor("failed")).toBe("retry_after_failed");
  });

  it("reads lightgate.expected_attempts as a positive integer only", () => {
    expect(expectedAttemptsFrom({ "lightgate.expected_attempts": 4 })).toBe(4);
    expect(expectedAttemptsFrom({ "lightgate.expected_attempts": "3" })).toBe(3);
    expect(expectedAttemptsFrom({ "lightgate.expected_attempts": 0 })).toBe(1);
    expect(expectedAttemptsFrom({ "lightgate.expected_attempts": 2.5 })).toBe(1);
    expect(expectedAttemptsFrom(null)).toBe(1);
  });
});

describe("watchdogVerdict", () => {
  const base = { now: 100, timeout_seconds: null, unresponsive_seconds: null, attempt_start_time: 50, last_heartbeat_time: null };
  it("timeout wins over unresponsive; silence is measured from the last heartbeat or the start", () => {
    expect(watchdogVerdict({ ...base, timeout_seconds: 10, unresponsive_seconds: 1 })).toBe("timeout");
    expect(watchdogVerdict({ ...base, unresponsive_seconds: 30, last_heartbeat_time: 95 })).toBeNull();
    expect(watchdogVerdict({ ...base, unresponsive_seconds: 30, last_heartbeat_time: 60 })).toBe("unresponsive");
    expect(watchdogVerdict({ ...base, unresponsive_seconds: 30 })).toBe("unresponsive");
    expect(watchdogVerdict(base)).toBeNull();
  });
});

describe("workers follow attempts", () => {
  it("busy while running, idle when finished, unknown when lost", () => {
    expect(workerPatchForAttempt("running", "ro", "at", 5)).toMatchObject({ status: "busy", current_rollout_id: "ro", last_busy_time: 5 });
    expect(workerPatchForAttempt("succeeded", "ro", "at", 5)).toMatchObject({ status: "idle", current_rollout_id: null, last_idle_time: 5 });
    expect(workerPatchForAttempt("timeout", "ro", "at", 5)).toMatchObject({ status: "unknown", current_attempt_id: null });
  });
});

describe("anonymous store access", () => {
  it("is honoured only when switched on and bound to loopback", () => {
    expect(anonymousAllowed({})).toBe(false);
    expect(anonymousAllowed({ LIGHTGATE_ALLOW_ANONYMOUS_STORE: "1", HOSTNAME: "127.0.0.1" })).toBe(true);
    expect(anonymousAllowed({ LIGHTGATE_ALLOW_ANONYMOUS_STORE: "1", HOSTNAME: "::1" })).toBe(true);
    expect(anonymousAllowed({ LIGHTGATE_ALLOW_ANONYMOUS_STORE: "1", HOSTNAME: "0.0.0.0" })).toBe(false);
    expect(anonymousAllowed({ LIGHTGATE_ALLOW_ANONYMOUS_STORE: "1", HOSTNAME: "10.0.0.5" })).toBe(false);
  });
});
