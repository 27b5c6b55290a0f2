// Zod refusals said plainly: a schema's own message is kept, zod's defaults are phrased from the issue.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldIssues, issuesSentence } from "@/lib/validation/sentence";

const sentence = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error("expected a refusal");
  return issuesSentence(fieldIssues(r.error.issues));
};

describe("issuesSentence", () => {
  it("phrases zod's defaults by kind and keeps messages a schema wrote", () => {
    const schema = z.object({
      name: z.string().min(1),
      code: z.string().length(4),
      tags: z.array(z.string()).max(2),
      ratio: z.number().gt(0),
      email: z.email(),
      id: z.string().max(8, "ids are at most 8 characters"),
    });
    expect(sentence(schema, { name: "", code: "abc", tags: ["a", "b", "c"], ratio: 0, email: "nope", id: "123456789" })).toBe(
      "name: must not be empty; code: must have exactly 4 characters; tags: must have at most 2 items; ratio: must be more than 0; email: must be a valid email; and 1 more",
    );
    expect(sentence(z.object({ id: z.string().max(8, "ids are at most 8 characters") }), { id: "123456789" })).toBe("id: ids are at most 8 characters");
  });

  it("names the input itself when the path is empty, and nested fields by their path", () => {
    expect(sentence(z.number().int(), 1.5)).toBe("input: must be an integer");
    expect(sentence(z.object({ a: z.array(z.object({ b: z.boolean() })) }), { a: [{ b: 1 }] })).toBe("a.0.b: must be a boolean");
  });
});
