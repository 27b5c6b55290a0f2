// The prompt-template resource, in Agent Lightning's own shape (`resource_type: "prompt_template"`,
// `template`, `engine`) plus Lightgate's content digest, and f-string rendering.
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
