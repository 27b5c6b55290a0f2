// Check 1: resource, exact parent, dataset snapshots and evaluator are pinned by digest and all resolve.
import type { Digest, JsonObject } from "../digest";
import { movingNameIn } from "../receipt/exact-names";
import { PIN_NAMES, type PinName } from "../receipt/stage3";
import type { Receipt } from "../receipt/view";
import { fail, pass, unavailable, type CheckInput, type CheckOutcome } from "./types";

type PinState = "resolved" | "unpinned" | "unchecked" | "unresolvable" | "mismatch";
const LABEL: Record<PinName, string> = {
  candidate: "candidate",
  parent: "parent",
  trainingData: "training snapshot",
  heldOutData: "held-out snapshot",
  evaluator: "evaluator",
};

/** Every name the receipt pins an artifact by, with what it is: a moving one anywhere is no pin. */
function pinnedNames(receipt: Receipt): [string, string][] {
  const { stage1: s1, stage3 } = receipt;
  const gate = stage3?.lockedGate;
  const names: [string, string | undefined][] = [
    ["candidate", s1.candidate.resourceId],
    ["parent", s1.parent.resourceId],
    ["training snapshot", s1.data.training.id],
    ["held-out snapshot", s1.data.heldOut.id],
    ["canary task set", s1.data.canary?.id],
    ["evaluator", s1.evaluator.id],
    ["evaluator version", s1.evaluator.version],
    ["locked gate's evaluator", gate && `${gate.evaluator.id}@${gate.evaluator.version}`],
    ["locked gate's snapshot", gate?.dataset.id],
    ["locked gate's candidate", gate?.candidate.resource.resourceId],
    ["locked gate's parent", gate?.parent.resource.resourceId],
  ];
  return names.filter((n): n is [string, string] => n[1] !== undefined);
}

export function checkPins({ receipt, evidence, parentLoad }: CheckInput): CheckOutcome {
  const s1 = receipt.stage1;
  const moving = pinnedNames(receipt).flatMap(([what, name]) => {
    const word = movingNameIn(name);
    return word ? [{ what, name, moving: word }] : [];
  });
  if (moving.length) {
    const list = moving.map((m) => `the ${m.what} is named "${m.name}" (moving name "${m.moving}")`).join("; ");
    return fail(`Not every pin names one exact artifact: ${list}.`, { movingNames: moving });
  }
  if (evidence.candidate.conflict) return fail(`The candidate's identity is inconsistent: ${evidence.candidate.conflict}.`, { conflict: evidence.candidate.conflict });

  const declared: Record<PinName, { id: string; digest: Digest | undefined }> = {
    candidate: { id: s1.candidate.resourceId, digest: evidence.candidate.ref?.digest },
    parent: { id: s1.parent.resourceId, digest: s1.parent.digest },
    trainingData: { id: s1.data.training.id, digest: s1.data.training.digest },
    heldOutData: { id: s1.data.heldOut.id, digest: s1.data.heldOut.digest },
    evaluator: { id: `${s1.evaluator.id}@${s1.evaluator.version}`, digest: s1.evaluator.digest },
  };
  const resolution = receipt.stage3?.resolution ?? {};
  const pins: JsonObject = {};
  const problems: { pin: PinName; state: PinState; note: string }[] = [];
  for (const pin of PIN_NAMES) {
    const { id, digest } = declared[pin];
    const r = resolution[pin];
    let state: PinState = "resolved";
    let note = "";
    if (!digest) [state, note] = ["unpinned", "has no digest yet"];
    else if (!r) [state, note] = ["unchecked", "was never looked up"];
    else if (r.status === "unresolvable") [state, note] = ["unresolvable", `cannot be resolved (${r.reason})`];
    else if (r.digest !== digest) [state, note] = ["mismatch", `resolves to different content (${r.digest.slice(0, 19)}…)`];
    // Resolved when the gate ran is not enough: the parent must load now, or a rollback serves nothing.
    else if (pin === "parent" && parentLoad && !parentLoad.loadable) [state, note] = ["unresolvable", `v${s1.parent.version} cannot be loaded now (${parentLoad.reason})`];
    pins[pin] = { id, digest: digest ?? null, state, ...(note ? { note } : {}) };
    if (state !== "resolved") problems.push({ pin, state, note });
  }
  const sentence = (ps: typeof problems) => ps.map((p) => `the ${LABEL[p.pin]} ${declared[p.pin].id} ${p.note}`).join("; ");
  const failing = problems.filter((p) => p.state === "unresolvable" || p.state === "mismatch");
  if (failing.length) return fail(`Not every pin resolves: ${sentence(failing)}.`, { pins });
  if (problems.length) return unavailable(`Pins cannot be confirmed yet: ${sentence(problems)}.`, { pins });
  const all = `Candidate, exact parent ${s1.parent.resourceId}, both data snapshots and evaluator ${declared.evaluator.id}`;
  return pass(`${all} all resolve to their pinned digests.`, { pins });
}
