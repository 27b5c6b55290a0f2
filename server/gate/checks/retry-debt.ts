// Check 3: unexpected retry debt is zero, or within the budget declared before training.
import { fail, pass, plural, unavailable, type CheckInput, type CheckOutcome } from "./types";

export function checkRetryDebt({ evidence }: CheckInput): CheckOutcome {
  const d = evidence.retryDebt;
  const facts = {
    attempts: d.attempts,
    byReason: d.byReason,
    unexpectedRetries: d.unexpectedRetries,
    excessResamples: d.excessResamples,
    expectedResamples: d.expectedResamples,
    debt: d.debt,
    budget: d.budget,
    worst: d.worst,
  };
  if (d.status === "unavailable") {
    const unknown = `${plural(d.byReason.unknown, "retry has", "retries have")} no recorded reason, so retry debt is unknown.`;
    return unavailable(d.attempts === 0 ? "No attempts were recorded, so retry debt is unknown." : unknown, facts);
  }
  const parts = [
    d.unexpectedRetries ? plural(d.unexpectedRetries, "unexpected retry", "unexpected retries") : "",
    d.excessResamples ? `${plural(d.excessResamples, "resample")} beyond plan` : "",
  ].filter(Boolean);
  if (d.debt > d.budget) return fail(`Retry debt is ${d.debt} (${parts.join(" and ")}), over the declared budget of ${d.budget}.`, facts);
  return pass(`Retry debt is ${d.debt}, within the declared budget of ${d.budget} (${plural(d.expectedResamples, "planned resample")} not counted).`, facts);
}
