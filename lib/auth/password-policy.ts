// The strong-password rule, shared by the server (which enforces it) and the forms (which explain it).
// In the spirit of NIST SP 800-63B: length and a list of known-bad choices, not composition rules.
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;

// The most common choices and the obvious ones for this product; compared case-insensitively, also
// after stripping trailing digits and symbols ("Password123!" is still "password").
const COMMON = new Set([
  "password", "passw0rd", "password1", "qwerty", "qwertyuiop", "letmein", "welcome", "iloveyou", "admin",
  "administrator", "changeme", "secret", "monkey", "dragon", "football", "baseball", "sunshine", "princess",
  "trustno1", "abc123", "starwars", "whatever", "lightgate", "lightning", "agentlightning", "correcthorsebatterystaple",
  "123456789012", "1234567890", "000000000000", "111111111111", "qwerty123456", "1q2w3e4r5t6y", "asdfghjkl",
  "zaq12wsx", "superman", "batman", "master", "shadow", "hello", "freedom", "default",
]);

export type PasswordContext = { email?: string; name?: string };

/** The rules a password breaks, each as a sentence for the form; empty when it is acceptable. */
export function passwordProblems(password: string, context: PasswordContext = {}): string[] {
  const problems: string[] = [];
  const chars = [...password];
  if (chars.length < MIN_PASSWORD_LENGTH) problems.push(`Use at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (chars.length > MAX_PASSWORD_LENGTH) problems.push(`Use at most ${MAX_PASSWORD_LENGTH} characters.`);
  const lower = password.toLowerCase();
  const core = lower.replace(/[\d\W_]+$/u, "").replace(/^[\d\W_]+/u, "");
  if (COMMON.has(lower) || COMMON.has(core) || COMMON.has(lower.replace(/[^a-z0-9]/g, ""))) {
    problems.push("This is one of the most common passwords; choose something less predictable.");
  }
  if (new Set(chars).size < 5) problems.push("Use at least 5 different characters.");
  if (isRun(lower)) problems.push("Avoid a run of consecutive characters such as abcdef… or 123456….");
  const local = context.email?.split("@")[0]?.toLowerCase();
  if (local && local.length >= 3 && lower.includes(local)) problems.push("Do not include your email address.");
  const nameParts = (context.name ?? "").toLowerCase().split(/\s+/).filter((p) => p.length >= 3);
  if (nameParts.some((p) => lower.includes(p))) problems.push("Do not include your name.");
  return problems;
}

/** True when every character is one step from the previous one (in either direction). */
function isRun(text: string): boolean {
  if (text.length < 4) return false;
  const codes = [...text].map((c) => c.codePointAt(0) ?? 0);
  const step = codes[1]! - codes[0]!;
  if (Math.abs(step) !== 1) return false;
  return codes.every((c, i) => i === 0 || c - codes[i - 1]! === step);
}
