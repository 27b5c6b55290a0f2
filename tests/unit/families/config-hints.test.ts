// The start form's hint under each run option comes from the family's own schema, so it cannot disagree with the
// check: for every option of every family, a value at each bound the hint names is accepted and one just past it
// is refused (with the option named), and each named choice is accepted.
import { describe, expect, it } from "vitest";
import { acceptedValues, fieldHint } from "@/lib/training/config-hints";
import { familyConfigProblems, listFamilies } from "@/server/trainers/families";

const families = listFamilies();

describe("run option hints", () => {
  it("say what each option accepts in words", () => {
    expect(acceptedValues({ type: "integer", minimum: 0, maximum: 1000 })).toBe("integer, 0 – 1,000");
    expect(acceptedValues({ type: "number", exclusiveMinimum: 0, maximum: 10 })).toBe("number, > 0 and ≤ 10");
    expect(acceptedValues({ type: "number", minimum: 0 })).toBe("number, ≥ 0");
    expect(acceptedValues({ type: "string", choices: ["adam", "sgd"] })).toBe("one of adam, sgd");
    expect(acceptedValues({ type: "string", choices: ["auto", "builtin", "openai"] })).toBe("one of auto, builtin, openai");
    expect(acceptedValues({ type: "boolean" })).toBe("");
    expect(fieldHint({ type: "integer", minimum: 1, maximum: 50, description: "Passes over each update's episodes." })).toBe("Passes over each update's episodes. Integer, 1 – 50");
    expect(fieldHint({ type: "string", choices: ["adam", "sgd"] })).toBe("One of adam, sgd");
    expect(fieldHint({ type: "boolean" })).toBeUndefined();
  });

  it("every family describes every option of its defaults", () => {
    for (const f of families) {
      const keys = Object.keys((f.defaults ?? {}) as object);
      expect(Object.keys(f.fields), f.name).toEqual(expect.arrayContaining([...keys, ...f.required]));
    }
    // The families the demo starts with read as sentences, not only ranges.
    for (const name of ["ppo", "text-policy"]) {
      const f = families.find((x) => x.name === name)!;
      const numeric = Object.entries(f.fields).filter(([, s]) => s.type === "integer" || s.type === "number");
      expect(numeric.filter(([, s]) => !s.description).map(([k]) => k), name).toEqual([]);
    }
  });

  it("bounds and choices the hints name are exactly those the schema enforces", () => {
    let checked = 0;
    for (const f of families) {
      const base = (f.defaults ?? {}) as Record<string, unknown>;
      if (f.required.length) continue; // no complete default to vary one option of
      for (const [key, spec] of Object.entries(f.fields)) {
        const problemsWith = (v: unknown) => familyConfigProblems(f.name, { ...base, [key]: v }).filter((p) => p.startsWith(key));
        const step = spec.type === "integer" ? 1 : 1e-9;
        const label = `${f.name}.${key}`;
        if (spec.minimum !== undefined) {
          expect(problemsWith(spec.minimum), label).toEqual([]);
          expect(problemsWith(spec.minimum - step), label).not.toEqual([]);
          checked++;
        }
        if (spec.maximum !== undefined) {
          expect(problemsWith(spec.maximum), label).toEqual([]);
          expect(problemsWith(spec.maximum + step), label).not.toEqual([]);
          checked++;
        }
        if (spec.exclusiveMinimum !== undefined) {
          expect(problemsWith(spec.exclusiveMinimum), label).not.toEqual([]);
          expect(problemsWith(spec.exclusiveMinimum + (spec.type === "integer" ? 1 : 1e-6)), label).toEqual([]);
          checked++;
        }
        for (const c of spec.choices ?? []) expect(problemsWith(c), label).toEqual([]);
        if (spec.choices) expect(problemsWith(`${spec.choices[0]}-not`), label).not.toEqual([]);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
