// Refused input as one sentence that names each field — `limit: must be at most 500` — instead of zod's JSON
// dump of its issues. Used for tRPC errors (server/trpc.ts), so every form and list shows the same words.
// A message a schema wrote itself (`.max(512, "must be at most 512 characters")`) is kept; zod's English
// defaults ("Too big: expected number to be <=500") are said plainly from the issue's own fields.
import type { z } from "zod";

export type FieldIssue = { path: string; message: string };

const ZOD_DEFAULT = /^(Too big|Too small|Invalid input|Invalid option|Invalid string|Invalid number|Invalid key|Invalid value|Unrecognized key|Invalid [a-z0-9 ]+$)/;
const MAX_LISTED = 5;

type Issue = z.core.$ZodIssue;
type Bound = { origin: string; inclusive?: boolean; exact?: boolean };

function sized(origin: string, n: number | bigint): string | null {
  if (origin === "string") return `${n} character${n === 1 ? "" : "s"}`;
  if (origin === "array" || origin === "set") return `${n} item${n === 1 ? "" : "s"}`;
  if (origin === "file") return `${n} bytes`;
  return null;
}

function bound(issue: Bound, n: number | bigint, side: "most" | "least"): string {
  const size = sized(issue.origin, n);
  if (issue.exact) return size ? `must have exactly ${size}` : `must be exactly ${n}`;
  if (size) return side === "least" && n === 1 && issue.origin === "string" ? "must not be empty" : `must have at ${side} ${size}`;
  if (issue.inclusive === false) return side === "most" ? `must be less than ${n}` : `must be more than ${n}`;
  return `must be at ${side} ${n}`;
}

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
const listed = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v) ?? String(v)).join(", ");

/** What is wrong with the value at one path, in a few plain words. */
function phrase(issue: Issue): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "too_big":
      return bound(issue, issue.maximum, "most");
    case "too_small":
      return bound(issue, issue.minimum, "least");
    case "invalid_type":
      return /received undefined$/.test(issue.message) ? "is required" : `must be ${article(issue.expected === "int" ? "integer" : String(issue.expected))}`;
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${listed(issue.values)}` : `must be one of ${listed(issue.values)}`;
    case "invalid_format":
      return issue.format === "regex" ? "has the wrong format" : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `has unknown field${issue.keys.length === 1 ? "" : "s"} ${listed(issue.keys)}`;
    default:
      return issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  }
}

/** Each issue with its path ("a.b.0", "" for the input itself) and a plain message. */
export function fieldIssues(issues: readonly Issue[]): FieldIssue[] {
  return issues.map((i) => ({ path: i.path.map(String).join("."), message: phrase(i) }));
}

/** `limit: must be at most 500; sort_order: must be one of "asc", "desc"` (at most five, then a count). */
export function issuesSentence(issues: readonly FieldIssue[], root = "input"): string {
  const parts = issues.slice(0, MAX_LISTED).map((i) => `${i.path || root}: ${i.message}`);
  if (issues.length > MAX_LISTED) parts.push(`and ${issues.length - MAX_LISTED} more`);
  return parts.join("; ");
}
