// Auth: better-auth's endpoints (sign-in with every kind of wrong body, content type and origin; sign-out and
// get-session with forged cookies; the switched-off and unknown endpoints) and forged credentials —
// Authorization and X-API-Key garbage, forged session cookies — at every other door (tRPC, store, OTLP,
// pointers). A refused sign-in on an existing account is recorded (audit log, throttling), nothing else.
// Passwords are guessed for a person made for the purpose, so the demo people's sign-ins stay unthrottled.
import fc from "fast-check";
import { bodyOf, contentType, deepMutated, edgeString, headerText, OVERSIZE, oversizeJson, protoName, segment, encode } from "../atoms";
import type { SuiteContext } from "../context";
import type { HostileCase } from "../http";
import type { FamilyCases } from "../runner";

/** Where a refused sign-in may leave a trace: the audit log and whatever counts failed attempts. */
const SIGN_IN_RECORDS = [/^AuditEvent$/, /sign.?in/i, /login/i, /throttl/i, /lockout/i, /device/i, /^(?!store_).*attempt/i];
const DISABLED = ["sign-up/email", "change-password", "update-user", "delete-user", "reset-password", "request-password-reset", "list-accounts", "verify-email", "sign-in/social", "refresh-token"];

export function authCases(ctx: SuiteContext): FamilyCases {
  const origin = ctx.creds.origin;
  const t = ctx.fixtures.target;
  const email = fc.oneof(fc.constantFrom(t.email, t.email, "nobody@lightgate.example", ` ${t.email.toUpperCase()} `, "a@b", "@", `${t.email}\u0000`), edgeString);
  const password = fc.oneof(fc.constantFrom("wrong-password-1", t.password, `${t.password} `, "", "x".repeat(129)), edgeString);
  const signInBody = fc.record({ email, password }).chain((b) =>
    fc.oneof({ weight: 3, arbitrary: fc.constant(b) }, { weight: 5, arbitrary: deepMutated({ ...b, rememberMe: true, callbackURL: "/" }) }, fc.constant({ ...b, callbackURL: "https://evil.example/steal" })),
  );
  const foreign: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "null" }, { referer: "https://evil.example/x" }];
  const originHeader = fc.oneof({ weight: 6, arbitrary: fc.constant<Record<string, string>>({ origin }) }, fc.constant<Record<string, string>>({}), fc.constantFrom(...foreign));
  const signIn = fc.tuple(bodyOf(signInBody), fc.oneof({ weight: 6, arbitrary: fc.constant("application/json") }, contentType), originHeader).map(
    ([body, type, o]): HostileCase => ({ route: "POST /api/auth/sign-in/email", who: "anonymous", method: "POST", path: "/api/auth/sign-in/email", headers: { "content-type": type, ...o }, body, refusalRecordedIn: SIGN_IN_RECORDS }),
  );

  const sessionValue = fc.oneof(edgeString.map((s) => encode(s.slice(0, 500))), fc.constantFrom("", "AAAA.BBBB", ".", "..", "%E0%A4%A", "x".repeat(4_000)), headerText.filter((s) => !/[;,]/.test(s)));
  const cookie = fc.oneof(
    sessionValue.map((v) => `lightgate.session_token=${v}`),
    fc.constantFrom("=;=;;", "lightgate.session_token", "__proto__=1; constructor=2", "lightgate.session_token=a; lightgate.session_token=b", Array.from({ length: 300 }, (_, i) => `c${i}=v`).join("; ")),
    headerText,
  );
  const withCookie = fc.tuple(fc.constantFrom("GET /api/auth/get-session", "POST /api/auth/sign-out", "GET /api/auth/session"), cookie, originHeader).map(([route, c, o]): HostileCase => {
    const [method, path] = route.split(" ") as [string, string];
    return { route, who: "forged:cookie", method, path, headers: { cookie: c, ...(method === "POST" ? { "content-type": "application/json", ...o } : {}) }, body: method === "POST" ? Buffer.from("{}") : undefined };
  });

  const endpoint = fc.oneof(fc.constantFrom(...DISABLED), fc.array(segment([]), { minLength: 1, maxLength: 3 }).map((s) => s.join("/")), protoName, fc.constantFrom("sign-in/email/x", "sign-in", "ok", "error"));
  const otherEndpoint = fc.tuple(endpoint, fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH")).map(([e, method]): HostileCase => ({
    route: `${method} /api/auth/<${DISABLED.includes(e) ? "switched off" : "unknown"}>`,
    who: "anonymous",
    method,
    path: `/api/auth/${e}`,
    headers: method === "GET" ? {} : { "content-type": "application/json", origin },
    body: method === "GET" ? undefined : Buffer.from(JSON.stringify({ email: "x@y.z", password: "p", newPassword: "q" })),
  }));
  const wrongMethod = fc.constantFrom("PUT", "DELETE", "PATCH").map((m): HostileCase => ({ route: `${m} /api/auth/sign-in/email`, who: "anonymous", method: m, path: "/api/auth/sign-in/email", headers: { "content-type": "application/json" }, body: Buffer.from("{}") }));

  const key = ctx.creds.services.algorithm.headers.authorization!.slice("Bearer ".length);
  const authorization = fc.oneof(
    fc.constantFrom("Bearer", "Bearer ", "Bearer  " + key, "bearer " + key.toUpperCase(), "Token " + key, "Bearer " + key + "x", "Bearer " + key.slice(0, 12), `Bearer ${key}, Bearer ${key}`, "Basic " + Buffer.from("admin:admin").toString("base64"), "Bearer " + "a".repeat(8_000)),
    headerText.map((t) => `Bearer ${t}`),
    headerText,
  );
  const apiKeyHeader = fc.oneof(fc.constantFrom("", " ", key.slice(0, -1), "__proto__", "ak_" + "0".repeat(60)), headerText);
  const credential = fc.oneof({ weight: 3, arbitrary: authorization.map((a) => ({ authorization: a })) }, apiKeyHeader.map((k) => ({ "x-api-key": k })), fc.tuple(authorization, cookie).map(([a, c]) => ({ authorization: a, cookie: c })));
  const doors: [string, string, string | undefined][] = [
    ["GET", "/api/trpc/auth.me", undefined],
    ["GET", `/api/trpc/store.listRollouts?input=${encode('{"json":{}}')}`, undefined],
    ["POST", "/api/trpc/passkeys.beginRegistration", "application/json"],
    ["GET", "/v1/agl/statistics", undefined],
    ["POST", "/v1/agl/queues/rollouts/dequeue", "application/json"],
    ["POST", "/v1/traces", "application/x-protobuf"],
    ["POST", "/v1/traces", "application/json"],
    ["GET", `/v1/pointers/${ctx.fixtures.agent}/history`, undefined],
    ["GET", `/v1/receipts/${ctx.fixtures.candidateId}`, undefined],
  ];
  const forged = fc.tuple(fc.constantFrom(...doors), credential).map(([[method, path, type], headers]): HostileCase => ({
    route: `${method} ${path.split("?")[0]} (forged credential)`,
    who: "forged",
    method,
    path,
    headers: { ...headers, ...(type ? { "content-type": type, origin } : {}) },
    body: type === undefined ? undefined : Buffer.from(type === "application/json" ? "{}" : ""),
  }));
  const oversize: HostileCase = { route: "POST /api/auth/sign-in/email (80 MiB)", who: "anonymous", method: "POST", path: "/api/auth/sign-in/email", headers: { "content-type": "application/json", origin }, body: oversizeJson(), mustRefuse: OVERSIZE, refuseWith: 413 };
  return { fixed: [oversize], random: fc.oneof({ weight: 6, arbitrary: signIn }, { weight: 2, arbitrary: withCookie }, { weight: 2, arbitrary: otherEndpoint }, { weight: 1, arbitrary: wrongMethod }, { weight: 4, arbitrary: forged }) };
}
