// The body of `POST /v1/gate/datasets`: a held-out or canary task set, 1–10,000 cases with unique ids.
// `input` and `expected` stay exactly as parsed (zod would drop an own `__proto__` key from a copy).
import { z } from "zod";

export const DATASET_KINDS = ["held_out", "canary"] as const;
export type DatasetKind = (typeof DATASET_KINDS)[number];
export const MAX_CASES = 10_000;

const present = (v: unknown) => v !== undefined;

export const ZDatasetCase = z.strictObject({
  id: z.string().min(1).max(256),
  input: z.unknown().refine(present, "is required (the rollout input a runner gets, any JSON)"),
  family: z.string().min(1).max(128).optional(),
  protected: z.boolean().optional(),
  expected: z.unknown().optional(),
});

export const ZPublishDataset = z
  .strictObject({
    name: z.string().min(1).max(200),
    kind: z.enum(DATASET_KINDS),
    cases: z.array(ZDatasetCase).min(1).max(MAX_CASES),
  })
  .superRefine((d, ctx) => {
    const first = new Map<string, number>();
    for (const [i, c] of d.cases.entries()) {
      const seen = first.get(c.id);
      if (seen === undefined) first.set(c.id, i);
      else ctx.addIssue({ code: "custom", path: ["cases", i, "id"], message: `duplicates cases.${seen}.id: case ids must be unique` });
    }
  });
export type PublishDatasetBody = z.infer<typeof ZPublishDataset>;

/** A case as stored and hashed: every default filled in. */
export type NormalisedCase = { id: string; input: unknown; family: string; protected: boolean; expected: unknown };

export function normaliseCases(cases: PublishDatasetBody["cases"]): NormalisedCase[] {
  return cases.map((c) => ({ id: c.id, input: c.input, family: c.family ?? "general", protected: c.protected ?? false, expected: c.expected ?? null }));
}
