import { describe, expect, it } from "vitest";
import { anonymize, clean, deduplicate, runPipeline } from "@/server/datasets/pipeline";
import type { DatasetRecord, Feedback } from "@/server/datasets/records";
import { stratifiedSplit } from "@/server/datasets/splits";
import { desk, expertDemos } from "../../helpers/families";

const demos = expertDemos(120, "pipeline");
const fb = (id: string, text: string, credibility = 1): Feedback => ({ kind: "feedback", id, interactionId: "int-1", raterId: "r", credibility, givenAt: "2026-03-01T00:00:00.000Z", rating: 4, preferredOver: null, correction: null, suggestions: [], text });

describe("the preprocessing pipeline", () => {
  it("cleaning normalises text and drops records that do not fit the environment", () => {
    const bad = { ...demos[0]!, id: "bad", steps: [{ ...demos[0]!.steps[0]!, action: "teleport" }] };
    const r = clean([{ ...demos[1]!, text: "  Ｈｅｌｌｏ\u0007   world \n\n again " }, bad], desk);
    expect(r.records).toHaveLength(1);
    expect(r.records[0]!.text).toBe("Hello world\nagain");
    expect(r.details).toEqual({ textNormalised: 1, droppedUnfit: 1 });
  });

  it("deduplicates exact copies (other id, same content) and near-duplicates (same behaviour, near-identical text)", () => {
    const base = "My invoice for March shows the annual plan although I switched to monthly billing in February";
    const records: DatasetRecord[] = [
      fb("a", base),
      fb("b", base),
      fb("c", base.replace("March", "April")),
      fb("d", "The export to CSV times out for every report larger than ten megabytes since Tuesday"),
      fb("e", "Short text"),
      fb("f", "Short text!"),
    ];
    const r = deduplicate(records, 0.6);
    expect(r.details).toEqual({ exactDuplicates: 1, nearDuplicates: 1 });
    expect(r.records.map((x) => x.id)).toEqual(["a", "d", "e", "f"]);
    // A near-identical text on a different interaction is not a duplicate.
    expect(deduplicate([fb("a", base), { ...fb("x", base.replace("March", "April")), interactionId: "int-2" }], 0.6).records).toHaveLength(2);
  });

  it("anonymizes every text and counts what it redacted", () => {
    const r = anonymize([fb("a", "Call me on +1 (415) 555-2671, thanks! Jane"), fb("b", "nothing to see")]);
    expect(r.records[0]!.text).toBe("Call me on [PHONE], thanks! [NAME]");
    expect(r.details).toMatchObject({ recordsRedacted: 1, "redacted.phone": 1, "redacted.name": 1, "redacted.email": 0 });
  });

  it("runs the steps in order and reports each step's counts for the lineage", () => {
    const dup = { ...demos[2]!, id: "zz-copy" };
    const { records, reports } = runPipeline([...demos, dup], [{ step: "clean" }, { step: "quality-filter" }, { step: "deduplicate" }, { step: "anonymize" }, { step: "augment", copies: 2 }], desk);
    expect(reports.map((r) => r.step)).toEqual(["clean", "quality-filter", "deduplicate", "anonymize", "augment"]);
    const lowQuality = demos.filter((d) => d.quality < 0.7).length;
    expect(reports[1]).toMatchObject({ in: 121, out: 121 - lowQuality - (dup.quality < 0.7 ? 1 : 0) });
    expect(reports[2]!.details.exactDuplicates).toBe(dup.quality < 0.7 ? 0 : 1);
    expect(reports[4]!.out).toBe(reports[4]!.in * 3);
    expect(records.filter((r) => r.id.endsWith("~aug2"))).toHaveLength(reports[4]!.in);
    // Deterministic, and augmentation really perturbs features.
    expect(runPipeline([...demos, dup], [{ step: "augment" }]).records).toEqual(runPipeline([...demos, dup], [{ step: "augment" }]).records);
    const aug = records.find((r) => r.id.endsWith("~aug1"))!;
    const orig = records.find((r) => r.id === aug.id.replace("~aug1", ""))!;
    expect(aug.kind === "demonstration" && orig.kind === "demonstration" && aug.steps[0]!.features[0] !== orig.steps[0]!.features[0]).toBe(true);
    expect(() => runPipeline(demos, [{ step: "deduplicate", nearDuplicateThreshold: 0 }])).toThrow(/pipeline step 0: nearDuplicateThreshold: nearDuplicateThreshold must be > 0/);
  });
});

describe("stratified splits", () => {
  it("keep each stratum's proportions within one record, are disjoint and complete, and deterministic for the seed", () => {
    const s = stratifiedSplit(demos, { train: 0.7, validation: 0.15, test: 0.15 }, "seed");
    const all = [...s.train, ...s.validation, ...s.test];
    expect(all.sort()).toEqual(demos.map((d) => d.id).sort());
    expect(new Set(all).size).toBe(demos.length);
    for (const [name, c] of Object.entries(s.strata)) {
      const n = demos.filter((d) => `demonstration/${d.domain}` === name).length;
      expect(Math.abs(c.train - 0.7 * n)).toBeLessThan(1);
      expect(Math.abs(c.validation - 0.15 * n)).toBeLessThan(1);
      expect(Math.abs(c.test - 0.15 * n)).toBeLessThan(1);
    }
    expect(stratifiedSplit(demos, { train: 0.7, validation: 0.15, test: 0.15 }, "seed")).toEqual(s);
    expect(stratifiedSplit(demos, { train: 0.7, validation: 0.15, test: 0.15 }, "other").train).not.toEqual(s.train);
    expect(() => stratifiedSplit(demos, { train: 0.7, validation: 0.2, test: 0.2 }, "s")).toThrow(/add up to 1/);
  });
});
