// The one table of body limits: which limit a request gets, judged from its path and method.
import { describe, expect, it } from "vitest";
import { BODY_LIMITS, BodyTooLargeError, bodyLimitFor, declaredTooLarge, DEFAULT_BODY_LIMIT } from "@/server/http/body-limits";

const headers = (h: Record<string, string>) => new Headers(h);

describe("body limits table", () => {
  it("gives each route family its limit", () => {
    expect(bodyLimitFor("/api/auth/sign-in/email", "POST")).toMatchObject({ family: "auth", bytes: 8 * 1024 });
    expect(bodyLimitFor("/api/trpc/feedback.submit,people.create", "POST")).toMatchObject({ family: "trpc", bytes: 1024 * 1024 });
    expect(bodyLimitFor("/v1/agl/queues/rollouts/enqueue", "POST")).toMatchObject({ family: "store", bytes: 16 * 1024 * 1024 });
    expect(bodyLimitFor("/v1/traces", "POST")).toMatchObject({ family: "otlp", format: "otlp" });
    expect(bodyLimitFor("/v1/pointers/a/approved-default", "POST")).toMatchObject({ family: "gate", bytes: 0 });
    expect(bodyLimitFor("/v1/gate/datasets", "POST")).toMatchObject({ family: "gate-datasets", bytes: 16 * 1024 * 1024 });
    expect(bodyLimitFor("/v1/gate/receipts/rcpt-1/candidate", "POST")).toMatchObject({ family: "gate-api", bytes: 1024 * 1024 });
    expect(bodyLimitFor("/v1/gate/verifications", "POST")).toMatchObject({ family: "gate-api", bytes: 1024 * 1024 });
    expect(bodyLimitFor("/rollouts", "POST")).toEqual(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor("/v1/tracesX", "POST")).toEqual(DEFAULT_BODY_LIMIT); // a prefix is a whole path segment
  });

  it("GET and HEAD take no body anywhere", () => {
    for (const e of BODY_LIMITS) for (const p of e.paths) expect(bodyLimitFor(`${p}/x`, "GET").bytes).toBe(0);
    expect(declaredTooLarge(headers({ "transfer-encoding": "chunked" }), "GET", bodyLimitFor("/v1/agl/rollouts", "GET"))?.message).toMatch(/GET requests to the store API \(\/v1\/agl\) take no body/);
    expect(declaredTooLarge(headers({ "content-length": "0" }), "GET", bodyLimitFor("/v1/agl/rollouts", "GET"))).toBeNull();
  });

  it("a percent-encoded path cannot pick a larger limit than its route's", () => {
    expect(bodyLimitFor("/api/%61uth/sign-in/email", "POST").bytes).toBe(8 * 1024);
    expect(bodyLimitFor("/api/auth/%zz", "POST").bytes).toBe(8 * 1024);
    expect(bodyLimitFor("/v1/gate/%64atasets", "POST").bytes).toBe(1024 * 1024); // the datasets route, at the 1 MiB of its spelling
  });

  it("judges a declared length from the headers, naming the limit", () => {
    const limit = bodyLimitFor("/api/auth/sign-in/email", "POST");
    expect(declaredTooLarge(headers({ "content-length": String(8 * 1024) }), "POST", limit)).toBeNull();
    const e = declaredTooLarge(headers({ "content-length": String(8 * 1024 + 1) }), "POST", limit);
    expect(e).toBeInstanceOf(BodyTooLargeError);
    expect(e?.message).toBe("the request body is larger than the 8 KiB (8192 bytes) limit for sign-in requests (/api/auth)");
    expect(declaredTooLarge(headers({ "transfer-encoding": "chunked" }), "POST", limit)).toBeNull(); // counted as it streams
  });
});
