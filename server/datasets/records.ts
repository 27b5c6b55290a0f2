// The records a dataset snapshot holds, as zod schemas (they cross process and database boundaries).
// Learners read them; the preprocessing pipeline cleans, filters, deduplicates, anonymizes and
// augments them; a snapshot pins a sorted list of them by digest.
import { z } from "zod";

const finite = z.number().refine(Number.isFinite, "must be a finite number");
const id = z.string().min(1, "id must not be empty").max(200, "id must be at most 200 characters");

/** One decision: what the agent observed (dense features + discrete state key) and what was done. */
export const ZDemoStep = z
  .object({
    features: z.array(finite).min(1, "features must not be empty"),
    key: z.string(),
    /** What the agent read at this step (environments with words); text policies learn from it. */
    text: z.string().max(20_000, "text must be at most 20,000 characters").optional(),
    action: z.string().min(1, "action must not be empty"),
    /** The reward components the environment measured for this step, when known (inverse RL reads them). */
    components: z
      .object({ task_completion: finite, user_satisfaction: finite, efficiency: finite, accuracy: finite })
      .strict()
      .nullable()
      .default(null),
  })
  .strict();
export type DemoStep = z.infer<typeof ZDemoStep>;

/** What demonstrations and interactions share: a task of a family, the decisions made, text, time. */
const episodeFields = {
  id,
  taskId: z.string(),
  /** Task family (intent family, distribution version, discovered cluster…). */
  domain: z.string().min(1, "domain must not be empty"),
  steps: z.array(ZDemoStep).min(1, "steps: at least one step is needed"),
  /** Free text that came with it (the customer's message, the expert's note); anonymized before training. */
  text: z.string().default(""),
  /** ISO time it was recorded (temporal validation and continual streams order by it). */
  recordedAt: z.iso.datetime().nullable().default(null),
};

/** An expert demonstration (a labeled example is a one-step demonstration). */
export const ZDemonstration = z
  .object({
    kind: z.literal("demonstration"),
    ...episodeFields,
    /** Who demonstrated: an expert id or a policy digest. */
    source: z.string().min(1, "source must not be empty"),
    quality: z.number().min(0, "quality must be ≥ 0").max(1, "quality must be ≤ 1"),
    outcomeReached: z.boolean().nullable().default(null),
  })
  .strict();
export type Demonstration = z.infer<typeof ZDemonstration>;

/** An interaction the deployed agent had, which feedback refers to. */
export const ZInteraction = z
  .object({
    kind: z.literal("interaction"),
    ...episodeFields,
    /** Digest of the policy that acted. */
    policy: z.string(),
  })
  .strict();
export type Interaction = z.infer<typeof ZInteraction>;

const feedbackFields = {
  interactionId: id,
  raterId: z.string().min(1, "raterId must not be empty"),
  /** How far this rater is trusted, 0..1 (e.g. agreement with reviewed ground truth so far). */
  credibility: z.number().min(0, "credibility must be ≥ 0").max(1, "credibility must be ≤ 1").default(1),
  givenAt: z.iso.datetime({ message: "givenAt must be an ISO date-time" }),
  /** 1..5 stars. */
  rating: z.number().min(1, "rating must be ≥ 1").max(5, "rating must be ≤ 5").nullable().default(null),
  /** This interaction was preferred over `over` (another interaction of the same task). */
  preferredOver: z.string().nullable().default(null),
  /** The action that should have been taken at a step. */
  correction: z.object({ step: z.number().int().min(0), action: z.string().min(1) }).strict().nullable().default(null),
  suggestions: z.array(z.string()).default([]),
  text: z.string().default(""),
};
type FeedbackSignal = { rating: number | null; preferredOver: string | null; correction: unknown; suggestions: string[] };
const hasSignal = (f: FeedbackSignal) => f.rating !== null || f.preferredOver !== null || f.correction !== null || f.suggestions.length > 0;
const signalRequired = { message: "feedback needs a rating, a preference, a correction or a suggestion", path: ["rating"] };

/** Feedback on one interaction as a client submits it (the server gives it its id). */
export const ZFeedbackSubmission = z.object(feedbackFields).strict().refine(hasSignal, signalRequired);

/** Feedback on one interaction: a rating, a preference over another interaction, a correction, or several. */
export const ZFeedback = z
  .object({ kind: z.literal("feedback"), id, ...feedbackFields })
  .strict()
  .refine(hasSignal, signalRequired);
export type Feedback = z.infer<typeof ZFeedback>;

/** An unlabeled task as the agent first sees it (for self-supervised pattern discovery). */
export const ZTaskRecord = z
  .object({
    kind: z.literal("task"),
    id,
    features: z.array(finite).min(1, "features must not be empty"),
    attributes: z.record(z.string(), z.string()).default({}),
    text: z.string().default(""),
  })
  .strict();
export type TaskRecord = z.infer<typeof ZTaskRecord>;

export const ZDatasetRecord = z.discriminatedUnion("kind", [ZDemonstration, ZInteraction, ZFeedback, ZTaskRecord]);
export type DatasetRecord = z.infer<typeof ZDatasetRecord>;
export type RecordKind = DatasetRecord["kind"];

export function recordsOfKind<K extends RecordKind>(records: readonly DatasetRecord[], kind: K): Extract<DatasetRecord, { kind: K }>[] {
  return records.filter((r): r is Extract<DatasetRecord, { kind: K }> => r.kind === kind);
}

/** Parses records with the failing record's index and field named. */
export function parseRecords(input: readonly unknown[]): DatasetRecord[] {
  return input.map((r, i) => {
    const parsed = ZDatasetRecord.safeParse(r);
    if (!parsed.success) throw new Error(`record ${i}: ${parsed.error.issues.map((x) => `${x.path.join(".") || "record"}: ${x.message}`).join("; ")}`);
    return parsed.data;
  });
}
