// Names, not ids: a candidate reads as "<agent> · <resources> v<n>" everywhere (list, page title, approvals),
// and the spec's four reference candidates carry their letter, so the demo's A–D can be found at a glance.
import { refId } from "@/server/gate/reference/common";
import type { ReferenceName } from "@/server/gate/reference/raw-evidence";

// The reference fixture names its candidates' resources `candidate-<letter>` (raw-evidence.ts).
const LETTERS: readonly ReferenceName[] = ["A", "B", "C", "D"];
const REFERENCE_RESOURCES = new Map(LETTERS.map((name) => [refId("rs", `candidate-${name}`), name]));

export type CandidateName = { title: string; label: string | null };

export function candidateLabel(c: { agent: string; resourcesId: string; version: number }): CandidateName {
  const letter = REFERENCE_RESOURCES.get(c.resourcesId);
  return { title: `${c.agent} · ${c.resourcesId} v${c.version}`, label: letter ? `reference ${letter}` : null };
}
