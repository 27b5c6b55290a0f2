// PII redactions a snapshot's pipeline made, by type, from its lineage's step reports (the anonymize
// step reports `redacted.<type>` counts). Shared by the server's dataset detail and the list page.

export type StepReport = { step: string; details: Record<string, number> };

export function redactionCounts(pipeline: readonly StepReport[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const step of pipeline) {
    for (const [k, v] of Object.entries(step.details)) if (k.startsWith("redacted.") && v > 0) out[k.slice(9)] = (out[k.slice(9)] ?? 0) + v;
  }
  return out;
}

/** "12 email, 4 phone" — or null when nothing was redacted. */
export function redactionText(counts: Record<string, number>): string | null {
  const parts = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${v} ${k}`);
  return parts.length ? parts.join(", ") : null;
}
