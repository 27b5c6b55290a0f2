// Pointers and receipts (/v1/pointers/<agent>/<pointer>[/resources][?at=], /v1/receipts/<candidateId>, /public-key):
// real agents and candidates, magic names (`toString`, `__proto__`) and bad percent-encoding in every
// segment, odd `at` times, extra segments, other methods, as any key, a session or nobody. Half of the draw
// is the gate API (/v1/gate/*, families/gate.ts), so the family's size — and npm test's cost — stays put.
import fc from "fast-check";
import { badPercent, edgeString, OVERSIZE, oversizeJson, protoName, queryOf, segment, encode } from "../atoms";
import { as, identityFor, type SuiteContext } from "../context";
import type { FamilyCases } from "../runner";
import { gateApiCases } from "./gate";

const POINTERS = ["approved-default", "latest-candidate", "canary", "history"];

export function pointerCases(ctx: SuiteContext): FamilyCases {
  const f = ctx.fixtures;
  const agent = segment([f.agent, "agent-without-pointers"]);
  const pointer = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...POINTERS) }, segment([]), protoName);
  const at = fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    fc.constantFrom(new Date().toISOString(), "2020-01-01", "1970-01-01T00:00:00Z", "+275760-09-13T00:00:00.000Z", "-271821-04-20T00:00:00.000Z", "0", "-1", "NaN", "8.64e15", "2026-13-45T99:99:99Z", "", "now", "toString"),
    edgeString.map((s) => encode(s.slice(0, 300))),
    badPercent,
  );
  const extra = fc.oneof({ weight: 10, arbitrary: fc.constant("") }, fc.constantFrom("/", "/x", "/__proto__", "//", "/%E0%A4%A", "/resources", "/resources/"));
  const method = fc.oneof({ weight: 10, arbitrary: fc.constant("GET") }, fc.constantFrom("POST", "PUT", "DELETE", "PATCH", "HEAD"));
  const who = identityFor(ctx, ctx.creds.services.release_bot);
  const otherQuery = fc.array(fc.tuple(fc.oneof(protoName, fc.constantFrom("at", "at[]", "limit")), fc.oneof(badPercent, fc.constantFrom("1", "-5"))), { maxLength: 2 });

  const pointerRequest = fc.record({ agent, pointer, at, extra, method, who, otherQuery }).map((r) =>
    as(r.who, {
      route: `${r.method} /v1/pointers/:agent/${POINTERS.includes(r.pointer) ? r.pointer : ":other"}`,
      method: r.method,
      path: `/v1/pointers/${r.agent}/${r.pointer}${r.extra}${queryOf([...(r.at === null ? [] : [["at", r.at] as const]), ...r.otherQuery])}`,
      headers: {},
    }),
  );
  const receiptRequest = fc.record({ id: segment([f.candidateId, "public-key"]), extra, method, who }).map((r) =>
    as(r.who, { route: `${r.method} /v1/receipts/:candidateId`, method: r.method, path: `/v1/receipts/${r.id}${r.extra}`, headers: {} }),
  );
  const shortPaths = fc.tuple(fc.constantFrom("/v1/pointers", "/v1/pointers/", `/v1/pointers/${f.agent}`, "/v1/receipts", "/v1/receipts/"), who).map(([p, w]) => as(w, { route: "GET /v1/pointers|receipts (incomplete)", method: "GET", path: p, headers: {} }));
  // These routes read no body: a huge one is refused (405) without being buffered.
  const fixed = ["/v1/pointers/support-desk/history", `/v1/receipts/${f.candidateId}`].map((p) => as(ctx.creds.services.release_bot, { route: `POST ${p.startsWith("/v1/p") ? "/v1/pointers/:agent/history" : "/v1/receipts/:candidateId"} (80 MiB)`, method: "POST", path: p, headers: { "content-type": "application/json" }, body: oversizeJson(), mustRefuse: OVERSIZE }));
  const gate = gateApiCases(ctx, f.gate);
  return { fixed: [...fixed, ...gate.fixed], random: fc.oneof({ weight: 6, arbitrary: pointerRequest }, { weight: 3, arbitrary: receiptRequest }, { weight: 1, arbitrary: shortPaths }, { weight: 10, arbitrary: gate.random }) };
}
