// Policies as Agent Lightning resources: one entry of a NamedResources map, with a Lightgate
// `resource_type` and a content digest, so a candidate can name its exact parent and the gate can load
// it again bit for bit.
//
// Note: Agent Lightning 0.3's Python client parses NamedResources as a union of `llm`, `proxy_llm` and
// `prompt_template` only (agentlightning/types/resources.py); a resources update holding a
// `lightgate_policy` entry fails its validation there (and its get_resources_* calls then return None).
// Lightgate's own runner reads these entries; publish policies under their own resources id so Python
// runners that only need LLM/prompt resources keep working.
import { z } from "zod";
import { digestOf, type Digest } from "@/server/digest";
import { mlpProblems } from "./neural/mlp";
import { encoderProblems } from "./text/encoder";
import type { Policy } from "./policy";

export const POLICY_RESOURCE_TYPE = "lightgate_policy";

const finite = z.number({ error: "must be a finite number" }).refine(Number.isFinite, "must be a finite number");
const environmentRef = z.object({ id: z.string().min(1), specDigest: z.string().regex(/^sha256:[0-9a-f]{64}$/, "specDigest must be sha256:<64 hex>") }).strict();
const epsilon = z.number().min(0, "epsilon must be ≥ 0").max(1, "epsilon must be ≤ 1");
/** How the policy acts once published (policy.ts `Serving`); absent on policies published before it existed. */
const serving = z
  .discriminatedUnion("mode", [
    z.object({ mode: z.literal("greedy") }).strict(),
    z.object({ mode: z.literal("sample"), temperature: z.number().gt(0, "temperature must be > 0 (0 is greedy: say so)").max(100, "temperature must be ≤ 100") }).strict(),
  ])
  .optional();

const network = z
  .object({
    inputs: z.array(z.number().int().min(0)).min(1),
    activation: z.enum(["tanh", "relu"]),
    layers: z.array(z.object({ kernel: z.array(finite), bias: z.array(finite), units: z.number().int().positive() }).strict()).min(1).max(8),
  })
  .strict();
const dense = z.object({ kernel: z.array(finite), bias: z.array(finite) }).strict();
const norm = z.object({ gain: z.array(finite), bias: z.array(finite) }).strict();
const encoder = z
  .object({
    tokenizer: z.literal("cl100k_base", { error: 'encoder.tokenizer must be "cl100k_base"' }),
    vocab: z.array(z.number().int().min(0)).max(100_000),
    maxTokens: z.number().int().min(1).max(512),
    dim: z.number().int().min(1).max(512),
    heads: z.number().int().min(1).max(16),
    hidden: z.number().int().min(1).max(2048),
    tokenEmbedding: z.array(finite),
    positionEmbedding: z.array(finite),
    blocks: z.array(z.object({ norm1: norm, query: dense, key: dense, value: dense, output: dense, norm2: norm, up: dense, down: dense }).strict()).min(1).max(8),
    finalNorm: norm,
  })
  .strict();

const textPolicy = z
  .object({
    kind: z.literal("text-softmax"),
    environment: environmentRef,
    actions: z.array(z.string().min(1)).min(2),
    featureCount: z.number().int().positive(),
    encoder,
    head: network,
    epsilon,
    serving,
  })
  .strict()
  .superRefine((p, ctx) => {
    for (const message of encoderProblems(p.encoder)) ctx.addIssue({ code: "custom", path: ["encoder"], message });
    for (const message of mlpProblems(p.head, p.encoder.dim + p.featureCount, p.actions.length)) ctx.addIssue({ code: "custom", path: ["head"], message });
  });

const mlpPolicy = (kind: "mlp-softmax" | "mlp-q") =>
  z
    .object({
      kind: z.literal(kind),
      environment: environmentRef,
      actions: z.array(z.string().min(1)).min(2),
      featureCount: z.number().int().positive(),
      network,
      epsilon,
      serving,
    })
    .strict()
    .superRefine((p, ctx) => {
      for (const message of mlpProblems(p.network, p.featureCount, p.actions.length)) ctx.addIssue({ code: "custom", path: ["network"], message });
    });

export const policySchema = z.discriminatedUnion("kind", [
  textPolicy,
  mlpPolicy("mlp-softmax"),
  mlpPolicy("mlp-q"),
  z
    .object({
      kind: z.literal("softmax-linear"),
      environment: environmentRef,
      actions: z.array(z.string().min(1)).min(2),
      featureCount: z.number().int().positive(),
      weights: z.array(finite),
      epsilon,
      serving,
    })
    .strict()
    .refine((p) => p.weights.length === p.actions.length * p.featureCount, "weights must hold actions × featureCount numbers"),
  z
    .object({
      kind: z.literal("q-tabular"),
      environment: environmentRef,
      actions: z.array(z.string().min(1)).min(2),
      table: z.record(z.string(), z.array(finite)),
      epsilon,
      serving,
    })
    .strict()
    .refine((p) => Object.values(p.table).every((row) => row.length === p.actions.length), "every Q-table row must hold one value per action"),
]);

export type PolicyResource = { resource_type: typeof POLICY_RESOURCE_TYPE; digest: Digest; policy: Policy };

export function policyDigest(policy: Policy): Digest {
  return digestOf(policy);
}

export function toPolicyResource(policy: Policy): PolicyResource {
  const parsed = policySchema.safeParse(policy);
  if (!parsed.success) throw new Error(`policy cannot be published: ${parsed.error.issues.map((i) => `${i.path.join(".") || "policy"}: ${i.message}`).join("; ")}`);
  return { resource_type: POLICY_RESOURCE_TYPE, digest: policyDigest(policy), policy };
}

const resourceSchema = z
  .object({
    resource_type: z.literal(POLICY_RESOURCE_TYPE, { error: `resource_type must be "${POLICY_RESOURCE_TYPE}"` }),
    digest: z.string(),
    policy: policySchema,
  })
  .strict();

/** Loads a policy from a resources entry; refuses malformed entries and any whose digest does not match. */
export function fromPolicyResource(entry: unknown): Policy {
  const parsed = resourceSchema.safeParse(entry);
  if (!parsed.success) throw new Error(`not a policy resource: ${parsed.error.issues.map((i) => `${i.path.join(".") || "entry"}: ${i.message}`).join("; ")}`);
  const policy = parsed.data.policy as Policy;
  const actual = policyDigest(policy);
  if (actual !== parsed.data.digest) throw new Error(`policy digest mismatch: the entry says ${parsed.data.digest}, its content is ${actual}`);
  return policy;
}
