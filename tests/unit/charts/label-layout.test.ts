// Reference-line labels on a curve chart never print over each other (issue 25): labels closer than a line of
// text are pushed apart as a group around where they wanted to be, kept in the plot, in their order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { separateLabels } from "@/lib/charts/label-layout";

const GAP = 13;
const PLOT: [number, number] = [19, 206];

describe("separateLabels", () => {
  it("leaves a lone label, and labels already a line apart, where they wanted to be", () => {
    expect(separateLabels([80], GAP, PLOT)).toEqual([80]);
    expect(separateLabels([40, 120, 60], GAP, PLOT)).toEqual([40, 120, 60]);
  });

  it("pushes two close labels (parent 0.785 above candidate 0.753 on a 220 px chart) a line apart, centred on both", () => {
    // Rewards span 0–1 (y = 206 … 8): the two lines sit 6 px apart, each label wanting to be 4 px above its line.
    const px = (v: number) => 206 - v * 198;
    expect(px(0.753) - px(0.785)).toBeLessThan(GAP);
    const wanted = [px(0.785) - 4, px(0.753) - 4];
    const [parent, candidate] = separateLabels(wanted, GAP, PLOT);
    expect(candidate! - parent!).toBeCloseTo(GAP, 9);
    expect((parent! + candidate!) / 2).toBeCloseTo((wanted[0]! + wanted[1]!) / 2, 9);
  });

  it("keeps each label's place in the order whatever order they are given in", () => {
    expect(separateLabels([105, 100], GAP, PLOT)).toEqual([109, 96]);
  });

  it("stays inside the plot: a cluster at the top moves down, one at the bottom moves up", () => {
    expect(separateLabels([20, 21, 22], GAP, PLOT)).toEqual([19, 32, 45]);
    expect(separateLabels([205, 206], GAP, PLOT)).toEqual([193, 206]);
  });

  it("for any labels that fit, every two are at least a line apart, inside the plot, in their order", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: PLOT[0] - 30, max: PLOT[1] + 30, noNaN: true }), { minLength: 1, maxLength: 14 }), (wanted) => {
        const ys = separateLabels(wanted, GAP, PLOT);
        const order = wanted.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y || a.i - b.i);
        for (let k = 1; k < order.length; k++) expect(ys[order[k]!.i]! - ys[order[k - 1]!.i]!).toBeGreaterThanOrEqual(GAP - 1e-9);
        for (const y of ys) {
          expect(y).toBeGreaterThanOrEqual(PLOT[0] - 1e-9);
          expect(y).toBeLessThanOrEqual(PLOT[1] + 1e-9);
        }
      }),
    );
  });
});
