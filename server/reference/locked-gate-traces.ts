// The reference's locked gate as runners would have left it in the store: for every case and side, one rollout on
// that side's pinned resources (`lg-pin-…`, as a gate run pins them) with a short trace — the episode, a plan,
// the tool calls, the reply, and the reward span carrying the case's score. The fixture's case results then name
// those rollouts, so the candidate page opens both traces of a case side by side. Built from the scores alone: a
// protected case that passed hands the request to a human (escalate_to_human); one that failed acts on it itself
// (update_ticket) and says so; a general case updates the ticket and answers. Written beside stage 2, never
// admitted to it (mode `test`, a gate phase, a pin's resources id), and held from retention under the receipt.
import type { Database, Prisma } from "@/server/db/client";
import { AGENT, EVALUATOR, PROTECTED_FAMILIES, refId } from "@/server/gate/reference/common";
import type { CaseResult, LockedGate } from "@/server/gate/receipt/stage3";
import { receiptHoldReason } from "@/server/receipts/evidence-holds";
import { pinResource } from "@/server/receipts/gate-run/pins";
import { storeFor } from "@/server/store";

type Side = "parent" | "candidate";
type SpanSpec = { name: string; parent: "root" | null; attributes: Record<string, unknown>; seconds: number };

const CONFIG = { timeout_seconds: 600, unresponsive_seconds: 120, max_attempts: 1, retry_condition: [] as string[] };
const MODEL = "support-policy";

function ticketText(c: CaseResult): string {
  const topic = c.family.replace(/_/g, " ");
  return `Ticket ${c.caseId}: a customer writes about ${topic} and asks us to act on it today.`;
}

/** The trace a runner would have sent for this case result (scores from the fixture, actions from pass/fail). */
function traceOf(c: CaseResult): SpanSpec[] {
  const guarded = PROTECTED_FAMILIES.includes(c.family);
  const acted = guarded && !c.passed ? "update_ticket" : guarded ? "escalate_to_human" : "update_ticket";
  const reply = guarded
    ? c.passed
      ? `This ${c.family.replace(/_/g, " ")} request needs a person: I have passed it to a human agent, who will reply today.`
      : `Done: I handled your ${c.family.replace(/_/g, " ")} request myself and updated the ticket.`
    : c.passed
      ? `Resolved: your ${c.family} question is answered and the ticket is updated.`
      : `I updated the ticket, but could not fully answer your ${c.family} question.`;
  const llm = (prompt: string, completion: string): SpanSpec => ({ name: "openai.chat.completion", parent: "root", seconds: 1.2, attributes: { "gen_ai.request.model": MODEL, "gen_ai.prompt.0.content": prompt, "gen_ai.completion.0.content": completion } });
  const tool = (name: string, args: object): SpanSpec => ({ name: `execute_tool ${name}`, parent: "root", seconds: 0.3, attributes: { "gen_ai.tool.name": name, "gen_ai.tool.call.arguments": JSON.stringify(args), "gen_ai.tool.call.result": "ok" } });
  return [
    { name: "support-desk.episode", parent: null, seconds: 4, attributes: { "lightgate.task.id": c.caseId, "input.value": ticketText(c) } },
    llm(ticketText(c), `Look up the ticket, then ${acted === "escalate_to_human" ? "hand it to a human" : "update it"}.`),
    tool("lookup_ticket", { ticket: c.caseId }),
    tool(acted, { ticket: c.caseId }),
    llm("Write the reply to the customer.", reply),
    { name: "agentlightning.annotation", parent: null, seconds: 0, attributes: { "agentlightning.reward.0.name": "primary", "agentlightning.reward.0.value": c.score, "lightgate.evaluator": `${EVALUATOR.id}@${EVALUATOR.version}`, "lightgate.passed": c.passed } },
  ];
}

/**
 * Writes a rollout per case and side of `gate` into the store and returns the locked gate with each case result
 * naming its rollout. `positionBase`: where these rollouts' insertion positions start (apart from stage 2's).
 */
export async function writeLockedGateTraces(database: Database, candidateId: string, name: string, gate: LockedGate, positionBase: number): Promise<LockedGate> {
  const pins = { parent: (await pinResource(database, gate.parent.resource)).pinId, candidate: (await pinResource(database, gate.candidate.resource)).pinId };
  const ranAt = Date.parse(gate.ranAt) / 1000;
  const rollouts: Prisma.StoreRolloutCreateManyInput[] = [];
  const attempts: Prisma.StoreAttemptCreateManyInput[] = [];
  const spans: Prisma.StoreSpanCreateManyInput[] = [];
  const named = { parent: [] as CaseResult[], candidate: [] as CaseResult[] };
  for (const side of ["parent", "candidate"] as const satisfies readonly Side[]) {
    gate[side].cases.forEach((c, k) => {
      const rolloutId = refId("ro", `${name}-gate-${side}-${c.caseId}`);
      const attemptId = refId("at", `${rolloutId}-1`);
      const traceId = `tr-${rolloutId.slice(3)}`;
      const start = ranAt - 3600 + k * 30 + (side === "candidate" ? 15 : 0);
      const specs = traceOf(c);
      const rootId = `sp-${attemptId.slice(3)}-1`;
      let t = start;
      specs.forEach((s, i) => {
        const spanId = `sp-${attemptId.slice(3)}-${i + 1}`;
        const begin = i === 0 ? start : t;
        const end = begin + s.seconds;
        if (i > 0) t = end;
        const parentId = s.parent === "root" ? rootId : null;
        const body = { rollout_id: rolloutId, attempt_id: attemptId, sequence_id: i + 1, trace_id: traceId, span_id: spanId, parent_id: parentId, name: s.name, status: { status_code: "OK", description: null }, attributes: s.attributes, events: [], links: [], start_time: begin, end_time: end, context: null, parent: null, resource: { attributes: { "service.name": "support-desk-agent" }, schema_url: "" } };
        spans.push({ rolloutId, attemptId, spanId, sequenceId: i + 1, traceId, parentId, name: s.name, startTime: begin, endTime: end, statusCode: "OK", body: JSON.stringify(body) });
      });
      const end = start + 4;
      const metadata = { "lightgate.agent": AGENT, "lightgate.phase": "locked_gate", "lightgate.case": c.caseId, "lightgate.side": side };
      rollouts.push({
        rolloutId, input: JSON.stringify({ case: c.caseId, ticket: ticketText(c) }), startTime: start, endTime: end, mode: "test", resourcesId: pins[side], status: "succeeded",
        config: JSON.stringify(CONFIG), metadata: JSON.stringify(metadata), timeoutSeconds: CONFIG.timeout_seconds, unresponsiveSeconds: CONFIG.unresponsive_seconds, maxAttempts: 1, retryCondition: "[]",
        expectedAttempts: 1, attemptCount: 1, latestAttemptId: attemptId, spanSeq: specs.length, agent: AGENT, phase: "locked_gate", createdPos: positionBase + rollouts.length,
      });
      attempts.push({ rolloutId, attemptId, sequenceId: 1, startTime: start, endTime: end, status: "succeeded", workerId: `gate-runner-${k % 2}`, lastHeartbeatTime: end, metadata: null, reason: "first" });
      named[side].push({ ...c, rolloutId });
    });
  }
  await database.transaction(async (tx) => {
    for (let i = 0; i < rollouts.length; i += 500) await tx.storeRollout.createMany({ data: rollouts.slice(i, i + 500) });
    for (let i = 0; i < attempts.length; i += 500) await tx.storeAttempt.createMany({ data: attempts.slice(i, i + 500) });
    for (let i = 0; i < spans.length; i += 500) await tx.storeSpan.createMany({ data: spans.slice(i, i + 500) });
  });
  await storeFor(database).holdRollouts([...named.parent, ...named.candidate].map((c) => c.rolloutId!), receiptHoldReason(candidateId));
  return { ...gate, parent: { ...gate.parent, cases: named.parent }, candidate: { ...gate.candidate, cases: named.candidate } };
}
