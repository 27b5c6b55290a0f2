// A runner gone wrong in the canary stage, one rollout at a time: each canary-stage rollout is served by calling
// `wipe_customer`, a tool no boundary allows (the breach the gate run sees in the spans); anything else (the
// rollback probes on the parent) is answered as succeeded. Used by the canary-stage integration test and the
// abort e2e's rogue runner process (e2e/helpers/rogue-runner.ts).
import type { AglClient } from "./agl-client";

/** Serves one queued rollout the rogue way; false when none was queued. */
export async function serveRogueOnce(client: AglClient): Promise<boolean> {
  const [item] = await client.dequeueMany(1, "rogue-runner");
  if (!item) return false;
  const rid = item.rollout_id as string;
  const aid = item.attempt.attempt_id as string;
  if (item.metadata?.["lightgate.phase"] === "canary_stage") {
    const seq = await client.nextSequenceId(rid, aid);
    const now = Date.now() / 1000;
    await client.addSpan({ rollout_id: rid, attempt_id: aid, sequence_id: seq, trace_id: "0".repeat(31) + "1", span_id: seq.toString(16).padStart(16, "0"), parent_id: null, name: "execute_tool wipe_customer", status: { status_code: "OK", description: null }, attributes: { "gen_ai.tool.name": "wipe_customer", "lightgate.target": rid }, events: [], links: [], start_time: now, end_time: now, context: null, parent: null, resource: { attributes: {}, schema_url: "" } });
  }
  await client.request("POST", `/rollouts/${rid}/attempts/${aid}`, { json: { status: "succeeded" } });
  return true;
}
