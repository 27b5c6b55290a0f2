// The prompt-template resource, in Agent Lightning's own shape (`resource_type: "prompt_template"`,
// `template`, `engine`) plus Lightgate's content digest, and f-string rendering.
import { z } from "zod";
import { digestOf, type Digest } from "@/server/digest";

export const PROMPT_RESOURCE_TYPE = "prompt_template";

export type PromptTemplate = { resource_type: typeof PROMPT_RESOURCE_TYPE; template: string; engine: "f-string" };
export type PromptResource = PromptTemplate & { digest: Digest };

export function promptTemplate(template: string): PromptTemplate {
  if (!template.trim()) throw new Error("a prompt template must not be empty");
  return { resource_type: PROMPT_RESOURCE_TYPE, template, engine: "f-string" };
}

export function promptResource(t: PromptTemplate): PromptResource {
  return { ...t, digest: digestOf({ resource_type: t.resource_type, template: t.template, engine: t.engine }) };
}

/** Python f-string-style `{name}` substitution; `{{` and `}}` are literal braces; unknown names are an error. */
export function renderTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{|\}\}|\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (m, name: string | undefined) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    const v = vars[name!];
    if (v === undefined) throw new Error(`prompt template uses {${name}}, which is not provided (have: ${Object.keys(vars).join(", ")})`);
    return v;
  });
}

/** The template's sentences (instructions), placeholders kept as their own lines. */
export function sentencesOf(template: string): string[] {
  return template
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const ZPromptEntry = z
  .object({
    resource_type: z.literal(PROMPT_RESOURCE_TYPE, { error: `resource_type must be "${PROMPT_RESOURCE_TYPE}"` }),
    template: z.string({ error: "template must be a string" }).max(200_000, "template must be at most 200,000 characters").refine((t) => t.trim().length > 0, "template must not be empty"),
    // Agent Lightning's engines; only f-string is rendered here, the others are refused by name below.
    engine: z.enum(["f-string", "jinja", "poml"], { error: 'engine must be "f-string", "jinja" or "poml"' }),
    digest: z.string().optional(),
  })
  .strict();

/**
 * Loads a prompt template from a resources entry as Agent Lightning writes it (no digest) or as Lightgate
 * publishes it (with one, which must match the content). Only the f-string engine is executed.
 */
export function fromPromptResource(entry: unknown): PromptResource {
  const parsed = ZPromptEntry.safeParse(entry);
  if (!parsed.success) throw new Error(`not a prompt template resource: ${parsed.error.issues.map((i) => `${i.path.join(".") || "entry"}: ${i.message}`).join("; ")}`);
  const { engine, template, digest } = parsed.data;
  if (engine !== "f-string") throw new Error(`prompt template engine "${engine}" is not supported by this runner (only "f-string")`);
  const resource = promptResource(promptTemplate(template));
  if (digest !== undefined && digest !== resource.digest) throw new Error(`prompt digest mismatch: the entry says ${digest}, its content is ${resource.digest}`);
  return resource;
}
