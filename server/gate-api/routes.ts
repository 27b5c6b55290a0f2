// The gate API's routes, each with who may call it (declared once: http.ts enforces it, the route matrix
// test reads it) and what it does. The work lives in one module per concern beside this file.
import { isLearner, LOCKED_SET_REFUSAL } from "@/lib/auth/exam-access";
import { DomainError } from "@/server/errors";
import type { GateCall, GateRoute } from "./access";
import { bindCandidate, BIND_FIELDS } from "./bind";
import { ZBindCandidate } from "./bind.schema";
import { datasetView, publishDataset, readDataset } from "./datasets";
import { ZPublishDataset } from "./datasets.schema";
import { ZDeclareReceipt } from "./declaration.schema";
import { declareReceipt } from "./declare";
import { gateRunView, requestRunForReceipt } from "./gate-runs";
import { ZRequestGateRun } from "./gate-runs.schema";
import { parseInput, queryInt } from "./input";
import { pendingVerifications } from "./pending";
import { receiptView } from "./receipt-view";
import { recordVerification } from "./verifications";
import { ZRecordVerification } from "./verifications.schema";
import { readDeclaration } from "@/server/receipts/declarations";

const notFound = (field: string, what: string) => new DomainError("NOT_FOUND", `${field}: no ${what}`, field);

/** The declaration a `:receipt_id` route acts on, once the caller may act on its agent. */
async function declarationOf(call: GateCall) {
  const id = call.params.get("receipt_id")!;
  const declaration = await readDeclaration(call.database.db, id);
  if (!declaration) throw notFound("receipt_id", `receipt ${id.slice(0, 200)}`);
  call.authorize(declaration.agent);
  return declaration;
}

export const GATE_API_ROUTES: readonly GateRoute[] = [
  {
    method: "POST",
    path: "/v1/gate/datasets",
    access: { scope: "policy:write", agent: "none" },
    async serve(call) {
      const { dataset, created } = await publishDataset(call.database, call.actor, parseInput(ZPublishDataset, await call.body()));
      return { status: created ? 201 : 200, body: { dataset_id: dataset.id, digest: dataset.digest, case_count: dataset.caseCount, created } };
    },
  },
  {
    method: "GET",
    path: "/v1/gate/datasets/:dataset_id",
    access: { scope: "read", agent: "none" },
    async serve(call) {
      const id = call.params.get("dataset_id")!;
      // The exam's answers only for those who write or verify exams: never the learner's keys.
      const withExpected = call.holds("policy:write") || call.holds("canary:verify");
      const found = await readDataset(call.database.db, id, withExpected);
      if (!found) throw notFound("dataset_id", `published dataset ${id.slice(0, 200)}`);
      if (found.dataset.kind === "held_out" && isLearner(call.holds)) throw new DomainError("FORBIDDEN", `dataset_id: ${LOCKED_SET_REFUSAL}`, "dataset_id");
      return { status: 200, body: { ...datasetView(found.dataset), expected_included: withExpected, cases: found.cases } };
    },
  },
  {
    method: "POST",
    path: "/v1/gate/receipts",
    access: { scope: "training:run", agent: "body" },
    async serve(call) {
      const { receiptId, declaration } = await declareReceipt(call.database, call.actor, parseInput(ZDeclareReceipt, await call.body()));
      return { status: 201, body: { receipt_id: receiptId, parent_digest: declaration.parent.digest, versions: declaration.versions } };
    },
  },
  {
    method: "GET",
    path: "/v1/gate/receipts/:receipt_id",
    access: { scope: "read", agent: "none" },
    async serve(call) {
      const id = call.params.get("receipt_id")!;
      const declaration = await readDeclaration(call.database.db, id);
      if (!declaration) throw notFound("receipt_id", `receipt ${id.slice(0, 200)}`);
      return { status: 200, body: await receiptView(call.database, declaration) };
    },
  },
  {
    method: "POST",
    path: "/v1/gate/receipts/:receipt_id/candidate",
    access: { scope: "training:run", agent: "record" },
    fields: BIND_FIELDS,
    async serve(call) {
      const declaration = await declarationOf(call);
      const bound = await bindCandidate(call.database, call.actor, declaration, parseInput(ZBindCandidate, await call.body()));
      return { status: 201, body: { receipt_id: bound.receiptId, candidate_id: bound.candidateId, digest: bound.digest } };
    },
  },
  {
    method: "POST",
    path: "/v1/gate/receipts/:receipt_id/gate-runs",
    access: { scope: "gate:run", agent: "record" },
    async serve(call) {
      const declaration = await declarationOf(call);
      const input = parseInput(ZRequestGateRun, await call.optionalBody());
      return { status: 202, body: await requestRunForReceipt(call.database, call.actor, declaration, input) };
    },
  },
  {
    method: "GET",
    path: "/v1/gate/gate-runs/:gate_run_id",
    access: { scope: "read", agent: "none" },
    async serve(call) {
      const id = call.params.get("gate_run_id")!;
      const view = await gateRunView(call.database, id);
      if (!view) throw notFound("gate_run_id", `gate run ${id.slice(0, 200)}`);
      return { status: 200, body: view };
    },
  },
  {
    method: "POST",
    path: "/v1/gate/verifications",
    access: { scope: "canary:verify", agent: "record" },
    async serve(call) {
      const body = parseInput(ZRecordVerification, await call.body());
      const { verificationId, gateRunId } = await recordVerification(call.database, call.actor, body, (agent) => call.authorize(agent));
      return { status: 201, body: { verification_id: verificationId, rollout_id: body.rollout_id, gate_run_id: gateRunId } };
    },
  },
  {
    method: "GET",
    path: "/v1/gate/verifications/pending",
    access: { scope: "canary:verify", agent: "record" },
    async serve(call) {
      const limit = queryInt(call.query, "limit", 100, 1, 500);
      return { status: 200, body: await pendingVerifications(call.database, (agent) => call.allows(agent), limit) };
    },
  },
];
