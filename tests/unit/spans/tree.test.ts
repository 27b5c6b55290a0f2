import { describe, expect, it } from "vitest";
import { ancestorsOf, buildSpanTree, visibleRows, type OutlineSpan } from "@/lib/spans/tree";

const span = (id: string, parent: string | null, start: number | null, end: number | null = null, attempt = "a1"): OutlineSpan => ({
  attempt_id: attempt,
  span_id: id,
  parent_id: parent,
  sequence_id: Number(id.replace(/\D/g, "")) || 0,
  name: `n${id}`,
  start_time: start,
  end_time: end,
  status_code: "OK",
});

describe("span tree", () => {
  it("nests by parent id within an attempt, orders children by time, and collapses", () => {
    const tree = buildSpanTree([span("c2", "r1", 5, 6), span("r1", null, 1, 10), span("c1", "r1", 2, 4), span("g1", "c1", 3, 3.5), span("r1", null, 20, 30, "a2"), span("o9", "missing", 11, 12)]);
    expect(tree.count).toBe(6);
    expect(tree.start).toBe(1);
    expect(tree.end).toBe(30);
    const rows = visibleRows(tree.roots, new Set());
    expect(rows.map((r) => `${"-".repeat(r.depth)}${r.node.key}`)).toEqual(["a1/r1", "-a1/c1", "--a1/g1", "-a1/c2", "a1/o9", "a2/r1"]);
    expect(tree.roots[0]!.size).toBe(4);
    expect(visibleRows(tree.roots, new Set(["a1/c1"])).map((r) => r.node.key)).toEqual(["a1/r1", "a1/c1", "a1/c2", "a1/o9", "a2/r1"]);
    expect(ancestorsOf(tree.roots, "a1/g1")).toEqual(["a1/c1", "a1/r1"]);
  });

  it("survives a parent cycle and a 5,000-deep chain", () => {
    const cyc = buildSpanTree([span("x1", "x2", 1), span("x2", "x1", 2)]);
    expect(visibleRows(cyc.roots, new Set()).map((r) => r.node.key)).toEqual(["a1/x1", "a1/x2"]);
    const chain = Array.from({ length: 5000 }, (_, i) => span(`s${i}`, i ? `s${i - 1}` : null, i));
    const deep = buildSpanTree(chain);
    const rows = visibleRows(deep.roots, new Set());
    expect(rows).toHaveLength(5000);
    expect(rows.at(-1)!.depth).toBe(4999);
    expect(deep.roots[0]!.size).toBe(5000);
  });
});
