// What the start-a-run form needs to say about each option of a family's config: its type, its bounds, its
// choices and what it does — read from the family's own zod schema (zod's JSON Schema export), so the hint
// beside a field can never disagree with the check that refuses it.
import { z } from "zod";
import type { FieldSpec } from "@/lib/training/config-hints";

type JsonSchema = {
  type?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  description?: string;
  properties?: Record<string, JsonSchema>;
};

const TYPES = new Set(["integer", "number", "string", "boolean", "object"]);

/** Each top-level option of a config schema (an object schema), as the form describes it. */
export function configFieldSpecs(schema: z.ZodType): Record<string, FieldSpec> {
  const js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const out: Record<string, FieldSpec> = {};
  for (const [key, p] of Object.entries(js.properties ?? {})) {
    const spec: FieldSpec = { type: p.type && TYPES.has(p.type) ? (p.type as FieldSpec["type"]) : "other" };
    // .int() alone bounds an integer by ±2^53 − 1: no bound a reader needs told.
    for (const bound of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const) {
      const v = p[bound];
      if (typeof v === "number" && Math.abs(v) !== Number.MAX_SAFE_INTEGER) spec[bound] = v;
    }
    if (Array.isArray(p.enum) && p.enum.every((v) => typeof v === "string")) spec.choices = p.enum as string[];
    if (p.description) spec.description = p.description;
    out[key] = spec;
  }
  return out;
}
