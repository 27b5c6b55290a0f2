// Check 5: no protected case regressed beyond its family's tolerance (zero unless a budget was declared).
import { fail, pass, plural, unavailable, type CheckInput, type CheckOutcome } from "./types";

export function checkProtectedCases({ evidence }: CheckInput): CheckOutcome {
  const p = evidence.protectedCases;
  const facts = { status: p.status, totalRegressions: p.totalRegressions, families: p.families };
  if (p.status === "invalid") return fail(`Protected cases cannot be judged on this locked gate: ${evidence.comparison.problems.join("; ")}.`, facts);
  const regressed = p.families.filter((f) => f.status === "regressed");
  if (regressed.length) {
    const total = regressed.reduce((s, f) => s + f.regressions.length, 0);
    const detail = regressed.map((f) => `${f.family}: ${f.regressions.join(", ")} (tolerance ${f.maxRegressions})`).join("; ");
    return fail(`${plural(total, "protected case")} regressed against the exact parent — ${detail}.`, facts);
  }
  if (p.families.length === 0) return unavailable("No protected-case family was declared, so nothing shows protected behaviour held.", facts);
  const missing = p.families.filter((f) => f.status === "unavailable").map((f) => f.family);
  if (missing.length) return unavailable(`Protected families without complete results on both sides: ${missing.join(", ")}.`, facts);
  if (p.status === "unavailable") return unavailable(`The locked gate is incomplete: ${evidence.comparison.problems.join("; ")}.`, facts);
  const cases = p.families.reduce((s, f) => s + f.cases, 0);
  return pass(`No protected case regressed: ${plural(p.families.length, "family", "families")}, ${plural(cases, "case")}, all within tolerance.`, facts);
}
