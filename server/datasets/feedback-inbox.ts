// The feedback inbox: `process_feedback` over the API. Each piece of feedback on one interaction is
// validated, given an id derived from its content (so a client retrying the same submission does not
// count it twice) and stored; the online learner and feedback training read it through snapshots.
import { canonicalJson, hexId } from "@/server/digest";
import type { Database } from "@/server/db/client";
import type { z } from "zod";
import { ZFeedback, ZFeedbackSubmission, type Feedback } from "./records";

export type FeedbackSubmission = z.input<typeof ZFeedbackSubmission>;

export async function submitFeedback(database: Database, input: FeedbackSubmission): Promise<{ id: string; created: boolean; feedback: Feedback }> {
  const parsed = ZFeedbackSubmission.safeParse(input);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".") || "feedback"}: ${i.message}`).join("; "));
  const id = `fb-${hexId(16, canonicalJson(parsed.data))}`;
  const feedback: Feedback = { kind: "feedback", id, ...parsed.data };
  return database.transaction(
    async (tx) => {
      if (await tx.feedbackEvent.findUnique({ where: { id }, select: { id: true } })) return { id, created: false, feedback };
      await tx.feedbackEvent.create({ data: { id, interactionId: feedback.interactionId, raterId: feedback.raterId, payload: canonicalJson(feedback) } });
      return { id, created: true, feedback };
    },
    { locks: [`feedback:${id}`] },
  );
}

/** Feedback received after `after` (all when omitted), oldest first. */
export async function feedbackReceived(database: Database, o: { after?: Date; interactionId?: string; limit?: number } = {}): Promise<Feedback[]> {
  const rows = await database.db.feedbackEvent.findMany({
    where: { ...(o.after ? { receivedAt: { gt: o.after } } : {}), ...(o.interactionId ? { interactionId: o.interactionId } : {}) },
    orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
    take: o.limit ?? 10_000,
  });
  return rows.map((r) => ZFeedback.parse(JSON.parse(r.payload)));
}
