// The hint under a run option in the start form: what it does (when the family says), then what it accepts —
// "integer, 0 – 1,000", "> 0 and ≤ 10", "one of adam, sgd". Shared by the server (which derives the specs from the
// family's schema, server/trainers/config-form.ts) and the form.

export type FieldSpec = {
  type: "integer" | "number" | "string" | "boolean" | "object" | "other";
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  choices?: string[];
  description?: string;
};

const n = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 6 });

/** What values the option accepts, or "" when its schema says nothing a reader needs (a switch, free text). */
export function acceptedValues(spec: FieldSpec): string {
  if (spec.choices?.length) return `one of ${spec.choices.join(", ")}`;
  if (spec.type !== "integer" && spec.type !== "number") return spec.type === "object" || spec.type === "other" ? "settings as JSON" : "";
  const kind = spec.type === "integer" ? "integer" : "number";
  const lo = spec.exclusiveMinimum !== undefined ? { op: ">", v: spec.exclusiveMinimum } : spec.minimum !== undefined ? { op: "≥", v: spec.minimum } : null;
  const hi = spec.exclusiveMaximum !== undefined ? { op: "<", v: spec.exclusiveMaximum } : spec.maximum !== undefined ? { op: "≤", v: spec.maximum } : null;
  if (lo?.op === "≥" && hi?.op === "≤") return `${kind}, ${n(lo.v)} – ${n(hi.v)}`;
  const parts = [lo && `${lo.op} ${n(lo.v)}`, hi && `${hi.op} ${n(hi.v)}`].filter(Boolean);
  return parts.length ? `${kind}, ${parts.join(" and ")}` : kind;
}

/** The whole hint: the description, then the accepted values. */
export function fieldHint(spec: FieldSpec | undefined): string | undefined {
  if (!spec) return undefined;
  const accepted = acceptedValues(spec);
  const sentence = accepted && accepted[0]!.toUpperCase() + accepted.slice(1);
  const text = [spec.description?.replace(/\.$/, ""), sentence].filter(Boolean).join(". ");
  return text || undefined;
}
