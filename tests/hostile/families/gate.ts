// The gate API (/v1/gate/*), part of the pointers family's draw: every route with bodies deep-mutated from
// valid ones (magic keys, wrong types, moving names, huge strings, broken JSON), ids that are real, magic or
// badly encoded, odd query strings, other methods and content types, as the usual caller or anybody.
import fc from "fast-check";
import { badPercent, bodyOf, contentType, deepMutated, edgeString, encode, OVERSIZE, oversizeJson, protoName, queryOf, segment } from "../atoms";
import type { Identity } from "../credentials";
import { as, identityFor, type SuiteContext } from "../context";
import { datasetBody, declarationBody, type GateFixtures } from "../gate-fixtures";
import type { HostileCase } from "../http";
import type { FamilyCases } from "../runner";

type Route = { label: string; method: "GET" | "POST"; path: fc.Arbitrary<string>; who: Identity; body?: unknown; query?: fc.Arbitrary<string> };

export function gateApiCases(ctx: SuiteContext, g: GateFixtures): FamilyCases {
  const s = ctx.creds.services;
  const receipt = segment([g.receiptId, "rcpt-000000000000"]);
  const routes: Route[] = [
    { label: "POST /v1/gate/datasets", method: "POST", path: fc.constant("/v1/gate/datasets"), who: s.policy, body: datasetBody("held_out", "m") },
    { label: "GET /v1/gate/datasets/:id", method: "GET", path: segment([g.heldOut, g.canary]).map((id) => `/v1/gate/datasets/${id}`), who: s.runner },
    { label: "POST /v1/gate/receipts", method: "POST", path: fc.constant("/v1/gate/receipts"), who: s.algorithm, body: declarationBody(g) },
    { label: "GET /v1/gate/receipts/:id", method: "GET", path: receipt.map((id) => `/v1/gate/receipts/${id}`), who: s.release_bot },
    { label: "POST /v1/gate/receipts/:id/candidate", method: "POST", path: receipt.map((id) => `/v1/gate/receipts/${id}/candidate`), who: s.algorithm, body: { resources_id: g.candidateResourcesId, version: 1 } },
    { label: "POST /v1/gate/receipts/:id/gate-runs", method: "POST", path: receipt.map((id) => `/v1/gate/receipts/${id}/gate-runs`), who: s.algorithm, body: {} },
    { label: "GET /v1/gate/gate-runs/:id", method: "GET", path: segment([g.gateRunId]).map((id) => `/v1/gate/gate-runs/${id}`), who: s.runner },
    { label: "POST /v1/gate/verifications", method: "POST", path: fc.constant("/v1/gate/verifications"), who: s.verifier, body: { rollout_id: g.canaryRolloutId, method: "judge", matched: true, confidence: 0.75 } },
    {
      label: "GET /v1/gate/verifications/pending",
      method: "GET",
      path: fc.constant("/v1/gate/verifications/pending"),
      who: s.verifier,
      query: fc.oneof({ weight: 3, arbitrary: fc.constant("") }, fc.constantFrom("1", "500", "0", "-1", "501", "1e3", "x", "").map((v) => queryOf([["limit", v]])), fc.tuple(protoName, fc.oneof(badPercent, edgeString.map((e) => encode(e.slice(0, 200))))).map(([k, v]) => queryOf([[k, v]]))),
    },
  ];
  const method = (usual: string) => fc.oneof({ weight: 12, arbitrary: fc.constant(usual) }, fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"));
  const type = fc.oneof({ weight: 8, arbitrary: fc.constant("application/json") }, contentType);
  const request = (r: Route): fc.Arbitrary<HostileCase> =>
    fc.record({ path: r.path, query: r.query ?? fc.constant(""), who: identityFor(ctx, r.who), method: method(r.method), type, body: r.body === undefined ? fc.constant(undefined) : bodyOf(deepMutated(r.body)) }).map((x) =>
      as(x.who, { route: r.label, method: x.method, path: x.path + x.query, headers: x.body === undefined ? {} : { "content-type": x.type }, body: x.method === "GET" ? undefined : x.body }, ctx.creds.origin),
    );
  const shortPaths = fc.tuple(fc.constantFrom("/v1/gate", "/v1/gate/", "/v1/gate/receipts/", `/v1/gate/receipts/${g.receiptId}/`, "/v1/gate/gate-runs", "/v1/gate/__proto__", `/v1/gate/receipts/${g.receiptId}/candidate/x`), identityFor(ctx, s.algorithm)).map(([p, w]) =>
    as(w, { route: "GET /v1/gate (no such route)", method: "GET", path: p, headers: {} }),
  );
  // Larger than any limit: refused from the headers, never buffered. A session cookie from another site: refused.
  const oversize = ["/v1/gate/datasets", "/v1/gate/receipts"].map((p) => as(s.policy, { route: `POST ${p} (80 MiB)`, method: "POST", path: p, headers: { "content-type": "application/json" }, body: oversizeJson(), mustRefuse: OVERSIZE, refuseWith: 413 }));
  const owner = ctx.creds.people.policy_owner;
  const crossSite = as(owner, {
    route: "POST /v1/gate/datasets (cross-site cookie)",
    method: "POST",
    path: "/v1/gate/datasets",
    headers: { "content-type": "application/json", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    body: Buffer.from(JSON.stringify(datasetBody("held_out", "x"))),
    mustRefuse: "a cross-site request carrying the session cookie",
    refuseWith: 403,
  });
  const fixed = [...oversize, crossSite];
  return { fixed, random: fc.oneof({ weight: 1, arbitrary: shortPaths }, ...routes.map((r) => ({ weight: r.body === undefined ? 2 : 4, arbitrary: request(r) }))) };
}
