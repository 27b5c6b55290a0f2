// The parent/child hierarchy of a rollout's spans (from parent_id, within one attempt) and the rows a
// collapsible tree shows. Iterative throughout, so a 1,000-deep chain cannot overflow the stack; spans
// whose parent is missing become roots, and a parent cycle is broken where it is first met.

export type OutlineSpan = {
  attempt_id: string;
  span_id: string;
  parent_id: string | null;
  sequence_id: number;
  name: string;
  start_time: number | null;
  end_time: number | null;
  status_code: string;
};

export type SpanNode = { key: string; span: OutlineSpan; children: SpanNode[]; size: number };
export type SpanTree = { roots: SpanNode[]; start: number | null; end: number | null; count: number };
export type TreeRow = { node: SpanNode; depth: number };

export const spanKey = (attemptId: string, spanId: string) => `${attemptId}/${spanId}`;

const byTime = (a: SpanNode, b: SpanNode) => (a.span.start_time ?? Infinity) - (b.span.start_time ?? Infinity) || a.span.sequence_id - b.span.sequence_id;

export function buildSpanTree(spans: readonly OutlineSpan[]): SpanTree {
  const nodes = new Map<string, SpanNode>();
  for (const span of spans) nodes.set(spanKey(span.attempt_id, span.span_id), { key: spanKey(span.attempt_id, span.span_id), span, children: [], size: 1 });
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parent_id ? nodes.get(spanKey(node.span.attempt_id, node.span.parent_id)) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  // Everything reachable from a root is placed; what is left sits on a cycle: cut it at its earliest span.
  const placed = new Set<string>();
  const visit = (root: SpanNode) => {
    const stack = [root];
    while (stack.length) {
      const n = stack.pop()!;
      if (placed.has(n.key)) continue;
      placed.add(n.key);
      stack.push(...n.children);
    }
  };
  roots.forEach(visit);
  for (const node of [...nodes.values()].sort(byTime)) {
    if (placed.has(node.key)) continue;
    for (const other of nodes.values()) other.children = other.children.filter((c) => c !== node);
    roots.push(node);
    visit(node);
  }
  // Sort children by time and count subtree sizes bottom-up (post-order without recursion).
  const order: SpanNode[] = [];
  const stack = [...roots];
  while (stack.length) {
    const n = stack.pop()!;
    order.push(n);
    n.children.sort(byTime);
    stack.push(...n.children);
  }
  for (let i = order.length - 1; i >= 0; i--) order[i]!.size = 1 + order[i]!.children.reduce((s, c) => s + c.size, 0);
  roots.sort(byTime);

  let start: number | null = null;
  let end: number | null = null;
  for (const s of spans) {
    if (s.start_time !== null) start = start === null ? s.start_time : Math.min(start, s.start_time);
    const last = s.end_time ?? s.start_time;
    if (last !== null) end = end === null ? last : Math.max(end, last);
  }
  return { roots, start, end, count: nodes.size };
}

/** The rows a tree shows, depth first, skipping the descendants of collapsed nodes. */
export function visibleRows(roots: readonly SpanNode[], collapsed: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: TreeRow[] = [...roots].reverse().map((node) => ({ node, depth: 0 }));
  while (stack.length) {
    const row = stack.pop()!;
    rows.push(row);
    if (collapsed.has(row.node.key)) continue;
    for (let i = row.node.children.length - 1; i >= 0; i--) stack.push({ node: row.node.children[i]!, depth: row.depth + 1 });
  }
  return rows;
}

/** The keys of a node's ancestors (to expand the path to a selected span). */
export function ancestorsOf(roots: readonly SpanNode[], key: string): string[] {
  const parent = new Map<string, string>();
  const stack = [...roots];
  while (stack.length) {
    const n = stack.pop()!;
    for (const c of n.children) {
      parent.set(c.key, n.key);
      stack.push(c);
    }
  }
  const out: string[] = [];
  for (let k = parent.get(key); k !== undefined; k = parent.get(k)) out.push(k);
  return out;
}
