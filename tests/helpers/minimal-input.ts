// A minimal valid value for a zod 4 schema, when one is easy to make: used by the permission matrix to
// call each procedure as an allowed identity. Returns { ok: false } when it cannot produce a valid value.
import type { z } from "zod";

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

function sample(schema: unknown, depth = 0): unknown {
  if (depth > 8) throw new Error("too deep");
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(shape)) {
        const t = defOf(v).type;
        if (t === "optional" || t === "default") continue;
        out[k] = sample(v, depth + 1);
      }
      return out;
    }
    case "string": {
      const format = (schema as { format?: string }).format ?? (def.format as string | undefined);
      if (format === "email") return "probe@example.org";
      if (format === "url") return "https://example.org/";
      return "matrix-probe-value";
    }
    case "number":
      return 1;
    case "int":
      return 1;
    case "bigint":
      return 1n;
    case "boolean":
      return false;
    case "date":
      return new Date(0);
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "literal":
      return (def.values as unknown[])[0];
    case "nullable":
      return null;
    case "optional":
    case "default":
      return undefined;
    case "array": {
      const min = Number((schema as { _zod: { bag?: { minimum?: number } } })._zod.bag?.minimum ?? 0);
      return Array.from({ length: min }, () => sample(def.element, depth + 1));
    }
    case "record":
      return {};
    case "union":
      return sample((def.options as unknown[])[0], depth + 1);
    case "pipe":
      return sample(def.in, depth + 1);
    case "any":
    case "unknown":
    case "custom":
      return {};
    default:
      throw new Error(`no sample for ${def.type}`);
  }
}

/** The procedure's input when it takes none, a minimal valid one, or { ok: false }. */
export function minimalInput(inputs: readonly unknown[]): { ok: true; value: unknown } | { ok: false } {
  if (inputs.length === 0) return { ok: true, value: undefined };
  try {
    const schema = inputs[0] as z.ZodType;
    const value = sample(schema);
    return schema.safeParse(value).success ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}
