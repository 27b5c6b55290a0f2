// The body of `POST /v1/gate/receipts`: the stage-1 declaration made before training, in the API's
// snake_case. Exact ids only (a moving name such as `latest`, `head` or a version range is refused naming
// the field); the server resolves every digest itself (server/gate-api/declare.ts).
import { z } from "zod";
import { ZDigest, ZJson } from "@/server/gate/digest";
import { ZExactName } from "@/server/gate/receipt/exact-names";
import { authoritySchema, ZRole } from "@/server/gate/receipt/refs";

const INT32 = 2 ** 31 - 1;
const ZName = z.string().min(1).max(200);
const ZNames = (max: number) => z.array(ZName).max(max);

/** One exact artifact: no moving name anywhere in it (the gate core's one rule), at most `max` characters. */
export const ZExact = (max = 512) => ZExactName(max);

const ZDatasetId = z.string().regex(/^gds-[0-9a-f]{16}$/, "must be a published dataset id (gds-<16 hex>, from POST /v1/gate/datasets)");

const ZApprovers = (step: "canary" | "default") =>
  z
    .strictObject({ actor_ids: z.array(ZName).max(100), roles: z.array(ZRole).max(20) })
    .transform((a) => ({ actorIds: a.actor_ids, roles: a.roles }))
    .pipe(authoritySchema(step));

/** The path of the first own `__proto__` key inside a parsed JSON value, or null. */
function protoKeyPath(value: unknown, at: (string | number)[] = []): (string | number)[] | null {
  if (value === null || typeof value !== "object") return null;
  if (!Array.isArray(value) && Object.hasOwn(value, "__proto__")) return [...at, "__proto__"];
  for (const [k, v] of Object.entries(value)) {
    const found = protoKeyPath(v, [...at, Array.isArray(value) ? Number(k) : k]);
    if (found) return found;
  }
  return null;
}

// Zod copies JSON key by key and drops an own `__proto__`: the sealed stage 1 would silently differ from
// what was declared, so such a key is refused before zod sees the value.
const ZConfig = z
  .unknown()
  .superRefine((raw, ctx) => {
    const path = protoKeyPath(raw);
    if (path) ctx.addIssue({ code: "custom", path, message: "cannot be kept in a receipt: rename the key" });
  })
  .pipe(z.record(z.string().max(200), ZJson));

export const ZDeclareReceipt = z.strictObject({
  agent: ZName,
  parent: z.strictObject({ resources_id: ZExact(), version: z.number().int().min(1).max(INT32) }),
  training_data: z
    .strictObject({ id: ZExact().optional(), digest: ZDigest.optional(), resources_ids: z.array(ZExact()).min(1).max(1000).optional() })
    .superRefine((t, ctx) => {
      const snapshot = t.id !== undefined || t.digest !== undefined;
      if (snapshot === (t.resources_ids !== undefined) || (snapshot && (t.id === undefined || t.digest === undefined))) {
        ctx.addIssue({ code: "custom", message: "give either a snapshot {id, digest} or {resources_ids: [...]}, the resources the training rollouts run" });
      }
    }),
  held_out_dataset: ZDatasetId,
  canary_dataset: ZDatasetId,
  evaluator: z.strictObject({ id: ZExact(200), version: ZExact(100) }),
  algorithm: z.strictObject({ name: ZName, config: ZConfig }),
  code_revision: z.string().regex(/^[0-9a-f]{7,64}$/, "must be a commit hash (7–64 lowercase hex)"),
  scope: z.strictObject({ tasks: ZNames(1000).min(1), tools: ZNames(1000), destinations: ZNames(1000) }),
  expected_evidence: z.strictObject({
    span_families: ZNames(200).min(1).refine((xs) => new Set(xs).size === xs.length, "span families must be unique"),
    retry_budget: z.strictObject({ expected_resamples_per_rollout: z.number().int().min(0).max(INT32), unexpected_retries: z.number().int().min(0).max(INT32) }),
    protected_families: z
      .array(z.strictObject({ family: ZName, max_regressions: z.number().int().min(0).max(INT32) }))
      .max(200)
      .refine((fs) => new Set(fs.map((f) => f.family)).size === fs.length, "protected families must be unique"),
  }),
  canary_boundary: z.strictObject({
    max_tasks: z.number().int().min(1).max(10_000),
    max_wall_time_seconds: z.number().positive().max(1e9),
    allowed_tools: ZNames(1000),
    max_cost_usd: z.number().min(0).max(1e9),
    allowed_side_effects: ZNames(1000),
  }),
  approvers: z.strictObject({ canary: ZApprovers("canary"), default: ZApprovers("default") }),
  candidate_resources_id: ZExact().optional(),
});
export type DeclareReceiptBody = z.infer<typeof ZDeclareReceipt>;
