// Whole numbers that reach a database integer column. PostgreSQL's `integer` holds at most 2³¹ − 1; a
// larger value from a caller would fail in the database (a 500) instead of in validation (a 400 naming it).
import { z } from "zod";

export const INT32_MAX = 2_147_483_647;

/** A whole number between `min` and 2³¹ − 1, with the field's own wording for the bounds when given. */
export function int32(min: number, messages: { min?: string; max?: string } = {}) {
  return z.number().int().min(min, messages.min).max(INT32_MAX, messages.max ?? `must be at most ${INT32_MAX}`);
}
