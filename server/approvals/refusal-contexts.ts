// What a refused decision was about, read from the caller's input as given — which may be anything, since
// the scope check records refusals before the input is parsed — so every field goes through `field`/`text`.
import { field, text, type RefusalContext } from "./refusal-audit";

const STEPS = new Set(["canary", "default"]);
const POINTERS = new Set(["canary", "approved_default"]);
const oneOf = (allowed: Set<string>, value: unknown) => (typeof value === "string" && allowed.has(value) ? value : null);

/** How a finish call was signed, and the nonce it presents (a replay names the spent one). */
function signedRequest(input: unknown) {
  const payload = field(input, "payload");
  return { nonce: text(field(payload, "nonce")), signedBy: field(input, "bot") !== undefined ? "ed25519" : "passkey" };
}

export function approvalBeginRefusal(input: unknown): RefusalContext {
  const step = oneOf(STEPS, field(input, "step"));
  return {
    kind: "approval",
    phase: "begin",
    action: step ? `approval.${step}.refused` : "approval.refused",
    target: { type: "candidate", id: text(field(input, "candidateId")) },
    request: { agent: text(field(input, "agent")), step: step ?? text(field(input, "step"), 20) },
  };
}

export function approvalFinishRefusal(input: unknown): RefusalContext {
  const data = field(field(input, "payload"), "data");
  const step = oneOf(STEPS, field(data, "step"));
  return {
    kind: "approval",
    phase: "finish",
    action: step ? `approval.${step}.refused` : "approval.refused",
    target: { type: "candidate", id: text(field(data, "candidateId")) },
    request: { agent: text(field(data, "agent")), step: step ?? "(none)", receiptDigest: text(field(data, "receiptDigest")), ...signedRequest(input) },
  };
}

export function rejectionBeginRefusal(input: unknown): RefusalContext {
  return {
    kind: "rejection",
    phase: "begin",
    action: "approval.reject.refused",
    target: { type: "candidate", id: text(field(input, "candidateId")) },
    request: { agent: text(field(input, "agent")), comment: text(field(input, "comment"), 500) },
  };
}

export function rejectionFinishRefusal(input: unknown): RefusalContext {
  const data = field(field(input, "payload"), "data");
  return {
    kind: "rejection",
    phase: "finish",
    action: "approval.reject.refused",
    target: { type: "candidate", id: text(field(data, "candidateId")) },
    request: { agent: text(field(data, "agent")), receiptDigest: text(field(data, "receiptDigest")), comment: text(field(data, "comment"), 500), ...signedRequest(input) },
  };
}

function rollbackTarget(agent: unknown, pointer: unknown) {
  const kind = oneOf(POINTERS, pointer);
  return { action: kind ? `rollback.${kind}.refused` : "rollback.refused", target: { type: "pointer", id: `${text(agent)}/${kind ?? text(pointer, 20)}` } };
}

export function rollbackBeginRefusal(input: unknown): RefusalContext {
  return {
    kind: "rollback",
    phase: "begin",
    ...rollbackTarget(field(input, "agent"), field(input, "pointer")),
    request: { toDigest: text(field(input, "toDigest")), reason: text(field(input, "reason"), 500) },
  };
}

export function rollbackFinishRefusal(input: unknown): RefusalContext {
  const data = field(field(input, "payload"), "data");
  const pointer = field(data, "pointer");
  return {
    kind: "rollback",
    phase: "finish",
    ...rollbackTarget(field(data, "agent"), field(pointer, "kind")),
    request: { toDigest: text(field(field(pointer, "to"), "digest")), ...signedRequest(input) },
  };
}
