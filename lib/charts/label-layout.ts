// Where a chart's on-plot labels go so that none overlaps another: each label wants to sit at its own
// position (e.g. just above its reference line), but labels closer than one line of text are pushed apart
// as a group, centred on where they wanted to be, and kept inside the plot. Pure, so it is tested without a DOM.

type Group = { first: number; count: number; sum: number; top: number };

/**
 * `wanted`: the y (pixels, down is larger) each label would take on its own, in any order. Returns the y of
 * each label in the same order, any two at least `gap` apart, all within `[min, max]` when they fit there
 * (when they do not, they still keep their gap and start at `min`). The order of labels along y never changes.
 */
export function separateLabels(wanted: readonly number[], gap: number, [min, max]: readonly [number, number]): number[] {
  const order = wanted.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y || a.i - b.i);
  const fitTop = (g: Group) => Math.max(min, Math.min(g.sum / g.count - ((g.count - 1) * gap) / 2, max - (g.count - 1) * gap));
  const groups: Group[] = [];
  order.forEach(({ y }, k) => {
    let g: Group = { first: k, count: 1, sum: y, top: 0 };
    g.top = fitTop(g);
    // Merge with the group above while the two would overlap; the merged group is centred on all its labels.
    for (let prev = groups.at(-1); prev && prev.top + prev.count * gap > g.top; prev = groups.at(-1)) {
      groups.pop();
      g = { first: prev.first, count: prev.count + g.count, sum: prev.sum + g.sum, top: 0 };
      g.top = fitTop(g);
    }
    groups.push(g);
  });
  const out = new Array<number>(wanted.length);
  for (const g of groups) for (let j = 0; j < g.count; j++) out[order[g.first + j]!.i] = g.top + j * gap;
  return out;
}
