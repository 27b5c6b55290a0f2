// Filtering, sorting and pagination with the reference's semantics (agentlightning FilterOptions):
// `must` conditions always apply; the others form one pool combined with filter_logic ("and"/"or").
// An empty `within` list matches nothing. `contains` is a case-sensitive substring test.
import type { SqlDialect } from "@/server/db/sql/program";
import { placeholders } from "@/server/db/sql/program";
import { StoreInputError } from "./errors";
import type { FilterLogic, SortOrder } from "./types";

export type Cond = { sql: string; params: unknown[] };

export const exact = (col: string, value: unknown): Cond => ({ sql: `${col} = ?`, params: [value] });
export const within = (col: string, values: readonly unknown[]): Cond =>
  values.length === 0 ? { sql: "1 = 0", params: [] } : { sql: `${col} IN (${placeholders(values.length)})`, params: [...values] };
export const contains = (d: SqlDialect, col: string, needle: string): Cond => ({
  sql: d.name === "sqlite" ? `instr(${col}, ?) > 0` : `strpos(${col}, ?) > 0`,
  params: [needle],
});

export function whereClause(must: Cond[], pool: Cond[], logic: FilterLogic = "and"): Cond {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const c of must) {
    parts.push(`(${c.sql})`);
    params.push(...c.params);
  }
  if (pool.length > 0) {
    parts.push(`(${pool.map((c) => `(${c.sql})`).join(logic === "or" ? " OR " : " AND ")})`);
    for (const c of pool) params.push(...c.params);
  }
  return { sql: parts.length ? ` WHERE ${parts.join(" AND ")}` : "", params };
}

/**
 * ORDER BY for a wire field name, in the reference's order (agentlightning's ListBasedCollection sorts with
 * Python's stable sort on a key where a missing `*_time` is +infinity and any other missing value is "", its
 * nullable non-time fields all being text): a NULL time sorts last ascending and first descending; any other
 * NULL sorts as the empty string — first ascending, last descending, tied with "". `columns` maps every field
 * of the target model to a column (fields without a column of their own map to their JSON text); `nullable`
 * names the columns that can hold NULL. Ties keep `tiebreak` ascending in both directions, as a stable sort
 * with reverse=True keeps insertion order. Explicit on both dialects (SQLite puts NULLs first ascending,
 * PostgreSQL last).
 */
export function orderBy(
  sortBy: string | null | undefined,
  order: SortOrder,
  columns: Record<string, string>,
  fallback: string,
  tiebreak: string,
  nullable: ReadonlySet<string> = NONE,
): string {
  if (sortBy === null || sortBy === undefined) return ` ORDER BY ${fallback}`;
  // Own keys only: `toString`, `constructor` and the like must not reach the SQL as column names.
  const col = Object.hasOwn(columns, sortBy) ? columns[sortBy] : undefined;
  if (!col) throw new StoreInputError(`Invalid sort_by: ${sortBy}, allowed fields are: ${Object.keys(columns).join(", ")}`, "sort_by");
  const dir = order === "desc" ? "DESC" : "ASC";
  // NOT NULL columns sort bare, so the planner can read the order off an index.
  const key = !nullable.has(col) ? `${col} ${dir}` : sortBy.endsWith("_time") ? `(${col} IS NULL) ${dir}, ${col} ${dir}` : `COALESCE(${col}, '') ${dir}`;
  return ` ORDER BY ${key}, ${tiebreak}`;
}
const NONE: ReadonlySet<string> = new Set();

export function limitOffset(limit: number, offset: number): Cond {
  if (limit === -1) return offset > 0 ? { sql: " LIMIT 9007199254740991 OFFSET ?", params: [offset] } : { sql: "", params: [] };
  return { sql: " LIMIT ? OFFSET ?", params: [limit, offset] };
}

/** The reference's pagination checks (`_validate_paginated_request`), as 400s naming the field. */
export function checkPage(p: { limit?: number; offset?: number; sort_order?: string; filter_logic?: string }): { limit: number; offset: number } {
  const limit = p.limit ?? -1;
  const offset = p.offset ?? 0;
  if (!Number.isInteger(limit) || limit === 0 || limit < -1) throw new StoreInputError("Limit must be greater than 0 or -1 for no limit", "limit");
  if (!Number.isInteger(offset) || offset < 0) throw new StoreInputError("Offset must be greater than or equal to 0", "offset");
  if (p.sort_order !== undefined && p.sort_order !== "asc" && p.sort_order !== "desc")
    throw new StoreInputError(`Invalid sort_order: ${p.sort_order}, allowed values are: asc, desc`, "sort_order");
  if (p.filter_logic !== undefined && p.filter_logic !== "and" && p.filter_logic !== "or")
    throw new StoreInputError(`Invalid filter_logic: ${p.filter_logic}, allowed values are: and, or`, "filter_logic");
  return { limit, offset };
}
