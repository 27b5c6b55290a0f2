// tRPC (/api/trpc): every procedure of appRouter, single and batched, with its minimal valid input changed
// anywhere (real ids where the input names one), hostile superjson envelopes and meta, malformed `input`
// query strings, unknown and magic procedure names, batches of hundreds, wrong methods and content types,
// as the scope's holder (a browser session sends its same-origin Origin) or anyone else. A cookie-carrying
// mutation from another origin (or a CSRF-shaped form post) must be refused.
import fc from "fast-check";
import { badPercent, contentType, deepMutated, edgeString, hostileJson, jsonText, objectOf, OVERSIZE, oversizeJson, protoName, encode } from "../atoms";
import { everyone, holderOf, type Identity } from "../credentials";
import { type SuiteContext } from "../context";
import type { HostileCase } from "../http";
import type { Procedure } from "../procedures";
import type { FamilyCases } from "../runner";

type Proc = Procedure;
type Call = { proc: Proc; envelope: unknown };

/** The minimal input with real objects where it names one, so a call gets past "not found". */
function withRealIds(value: unknown, ctx: SuiteContext): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const f = ctx.fixtures;
  const real: Record<string, string> = { rollout_id: f.rolloutId, attempt_id: f.attemptId, span_id: f.spanId, resources_id: f.resourcesId, candidateId: f.candidateId, id: f.candidateId, agent: f.agent };
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === "string" && k in real ? real[k] : v]));
}

const hostileMeta = fc.oneof(
  fc.constant({ values: objectOf([["__proto__", ["Date"]]]) }),
  fc.constant({ values: ["bigint"] }),
  fc.constant({ values: { limit: [["custom", "nope"]] } }),
  fc.constant({ values: { "a.__proto__.polluted": ["set"] } }),
  fc.constant({ values: { limit: ["number"] } }),
  fc.constant({ values: { x: ["class", "Object"] } }),
  fc.constant({ referentialEqualities: { "": ["__proto__"] } }),
  fc.constant({ referentialEqualities: { a: ["a.b", "a.b.c"] } }),
  fc.constant({ v: 99 }),
  hostileJson.map((m) => m),
);

function inputOf(proc: Proc, ctx: SuiteContext): fc.Arbitrary<unknown> {
  const base = withRealIds(proc.base, ctx);
  return fc.oneof({ weight: 6, arbitrary: deepMutated(base ?? {}) }, { weight: 1, arbitrary: fc.constant(base) }, { weight: 1, arbitrary: hostileJson }, { weight: 1, arbitrary: fc.constant(undefined) });
}

function callOf(proc: Proc, ctx: SuiteContext): fc.Arbitrary<Call> {
  return inputOf(proc, ctx).chain((input) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(input === undefined ? undefined : { json: input }) },
      { weight: 1, arbitrary: fc.constant(input) },
      { weight: 1, arbitrary: hostileMeta.map((meta) => ({ json: input, meta })) },
    ).map((envelope) => ({ proc, envelope })),
  );
}

const CROSS_ORIGIN: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "null" }, { "sec-fetch-site": "cross-site" }, { origin: "http://localhost.evil.example" }];
/** What a form on another site can post without CORS: the three "simple" content types. */
const CSRF_BODIES: Record<string, string> = {
  "multipart/form-data; boundary=x": '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
  "text/plain": '{"json":null}',
  "application/x-www-form-urlencoded": "a=1",
};
const CSRF_TYPES = Object.keys(CSRF_BODIES);

function build(ctx: SuiteContext, calls: Call[], who: Identity, opts: { batch: boolean; method?: string; crossOrigin?: Record<string, string>; type?: string; rawInput?: string; rawBody?: string }): HostileCase {
  const paths = calls.map((c) => c.proc.path).join(",");
  const mutation = calls.some((c) => c.proc.type === "mutation");
  const method = opts.method ?? (mutation ? "POST" : "GET");
  const payload = opts.batch ? jsonText(objectOf(calls.map((c, i) => [String(i), c.envelope ?? {}]))) : calls[0]!.envelope === undefined ? undefined : jsonText(calls[0]!.envelope);
  let query = opts.batch ? "?batch=1" : "";
  let body: Buffer | undefined;
  if (method === "GET") {
    // Node refuses request heads over 16 KiB before any handler runs: longer inputs go out cut short.
    const input = opts.rawInput ?? (payload === undefined ? undefined : encode(payload).slice(0, 12_000));
    if (input !== undefined) query += `${query ? "&" : "?"}input=${input}`;
  } else body = Buffer.from(opts.rawBody ?? payload ?? (opts.batch ? "{}" : ""));
  const headers: Record<string, string> = method === "GET" ? {} : { "content-type": opts.type ?? "application/json" };
  if (who.cookie) Object.assign(headers, opts.crossOrigin ?? (method === "GET" ? {} : { origin: ctx.creds.origin }));
  // Every item a mutation, so "refused" means the whole answer (a batch's queries may still be answered).
  const crossMutation = who.cookie && method === "POST" && opts.crossOrigin !== undefined && calls.every((c) => c.proc.type === "mutation");
  const label = calls.length > 1 ? `batch ×${calls.length} (${calls[0]!.proc.path}, …)` : calls[0]!.proc.path;
  return {
    route: `${method} trpc ${opts.batch ? (calls.length > 1 ? "batch" : "batch ×1") : "single"} ${calls.length > 1 ? calls[0]!.proc.path + ",…" : calls[0]!.proc.path}`,
    who: who.label,
    method,
    path: `/api/trpc/${paths}${query}`,
    headers: { ...who.headers, ...headers },
    body,
    ...(crossMutation ? { mustRefuse: `a cross-origin mutation carrying a session cookie (${label}, ${JSON.stringify(opts.crossOrigin)})` } : {}),
    ...(calls.some((c) => c.proc.path.startsWith("approvals.")) ? { refusalRecordedIn: [/^AuditEvent$/, /^approval_decisions$/, /refus/i] } : {}),
  };
}

export function trpcCases(ctx: SuiteContext): FamilyCases {
  const procs = ctx.procedures;
  const anyone = everyone(ctx.creds);
  const whoFor = (p: Proc) => fc.oneof({ weight: 6, arbitrary: fc.constant(holderOf(ctx.creds, p.scope)) }, { weight: 1, arbitrary: fc.constantFrom(...anyone) });
  const anyCall = fc.constantFrom(...procs).chain((p) => callOf(p, ctx));
  const crossOrigin = fc.option(fc.constantFrom(...CROSS_ORIGIN), { freq: 8 }).map((o) => o ?? undefined);

  const single = fc.constantFrom(...procs).chain((p) => fc.tuple(callOf(p, ctx), whoFor(p), crossOrigin)).map(([c, who, co]) => build(ctx, [c], who, { batch: false, crossOrigin: co }));
  const batch = fc.tuple(fc.array(anyCall, { minLength: 1, maxLength: 6 }), crossOrigin).chain(([calls, co]) => whoFor(calls[0]!.proc).map((who) => build(ctx, sameKind(calls), who, { batch: true, crossOrigin: co })));
  const bigBatch = fc.array(anyCall, { minLength: 50, maxLength: 250 }).map((calls) => build(ctx, calls.map((c) => ({ ...c, proc: { ...c.proc, type: "mutation" as const } })), ctx.creds.people.admin, { batch: true, method: "POST" }));
  const wrongMethod = fc.tuple(anyCall, fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE")).map(([c, m]) => build(ctx, [c], holderOf(ctx.creds, c.proc.scope), { batch: false, method: m }));
  const csrf = fc.tuple(fc.constantFrom(...procs.filter((p) => p.type === "mutation")), fc.constantFrom(...CSRF_TYPES), fc.constantFrom(...CROSS_ORIGIN)).map(([p, type, co]) =>
    build(ctx, [{ proc: p, envelope: undefined }], holderOf(ctx.creds, p.scope), { batch: false, type, crossOrigin: co, rawBody: CSRF_BODIES[type] }),
  );
  const rawInput = fc.tuple(fc.constantFrom(...procs.filter((p) => p.type === "query")), fc.oneof(badPercent, fc.constantFrom("%7B", "not-json", encode('{"json":'), "%5B%5D", "null", encode('{"0":1}'), encode(`{"__proto__":{"json":{}}}`))), fc.boolean()).map(([p, raw, b]) =>
    build(ctx, [{ proc: p, envelope: undefined }], holderOf(ctx.creds, p.scope), { batch: b, rawInput: raw }),
  );
  const weirdType = fc.tuple(fc.constantFrom(...procs.filter((p) => p.type === "mutation")), contentType).chain(([p, type]) => callOf(p, ctx).map((c) => build(ctx, [c], holderOf(ctx.creds, p.scope), { batch: false, type })));
  const unknown = fc.tuple(fc.oneof(protoName, fc.constantFrom("nope", "store.__proto__", "store.constructor", "store.toString", "system.status.x", ",", "store.listRollouts,", ".", "store..listRollouts"), edgeString.map((s) => encode(s.slice(0, 200))), badPercent), fc.boolean()).map(([name, b]) => ({
    ...build(ctx, [{ proc: { path: name, type: "query", base: {} }, envelope: { json: {} } }], ctx.creds.people.viewer, { batch: b }),
    route: `GET trpc ${b ? "batch" : "single"} <unknown procedure>`,
  }));

  // Every procedure at least once alone and once in a batch, before the random ones.
  const fixed = procs.flatMap((p, i) => {
    const [call] = fc.sample(callOf(p, ctx), { seed: 1_000 + i, numRuns: 1 });
    const partner = procs.find((q, j) => j > i && q.type === p.type) ?? procs.find((q) => q.type === p.type)!;
    const [other] = fc.sample(callOf(partner, ctx), { seed: 2_000 + i, numRuns: 1 });
    const who = holderOf(ctx.creds, p.scope);
    // Every string of the minimal input with a NUL in it: PostgreSQL cannot hold one.
    const base = withRealIds(p.base, ctx);
    const strings = base && typeof base === "object" ? Object.entries(base).filter(([, v]) => typeof v === "string") : [];
    const nul = strings.length ? [build(ctx, [{ proc: p, envelope: { json: { ...(base as object), ...Object.fromEntries(strings.map(([k, v]) => [k, `${String(v)}\u0000`])) } } }], who, { batch: false })] : [];
    // Each number of the minimal input (and a query's page limit) past a 32-bit integer column, and negative.
    const numbers = base && typeof base === "object" ? Object.keys(base).filter((k) => typeof (base as Record<string, unknown>)[k] === "number") : [];
    const edges = [...numbers, ...(p.type === "query" ? ["limit"] : [])].flatMap((k) => [2 ** 31, -5].map((v) => build(ctx, [{ proc: p, envelope: { json: { ...((base as object) ?? {}), [k]: v } } }], who, { batch: false })));
    return [build(ctx, [call!], who, { batch: false }), build(ctx, [call!, other!], who, { batch: true }), ...nul, ...edges];
  });
  const admin = ctx.creds.people.admin;
  for (const p of ["/api/trpc/people.create", "/api/trpc/people.create,people.create?batch=1"]) {
    fixed.push({ route: `POST ${p.split("?")[0]} (80 MiB)`, who: admin.label, method: "POST", path: p, headers: { ...admin.headers, origin: ctx.creds.origin, "content-type": "application/json" }, body: oversizeJson(), mustRefuse: OVERSIZE, refuseWith: 413 });
  }
  return {
    fixed,
    random: fc.oneof(
      { weight: 10, arbitrary: single },
      { weight: 5, arbitrary: batch },
      { weight: 1, arbitrary: bigBatch },
      { weight: 2, arbitrary: wrongMethod },
      { weight: 2, arbitrary: csrf },
      { weight: 2, arbitrary: rawInput },
      { weight: 1, arbitrary: weirdType },
      { weight: 2, arbitrary: unknown },
    ),
  };
}

/** A batch goes out as one method: queries by GET, anything with a mutation by POST (kept short for GET URLs). */
function sameKind(calls: Call[]): Call[] {
  const mutation = calls.some((c) => c.proc.type === "mutation");
  if (mutation) return calls;
  let length = 0;
  return calls.filter((c) => (length += jsonText(c.envelope ?? {}).length * 3) < 6_000 || c === calls[0]);
}
