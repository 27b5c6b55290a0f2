// The three pointers by name and colour, as the pointer cards, the timeline and the versions table show them.
import { Badge, type Tone } from "@/components/ui/badge";
import type { PointerKindName } from "./types";

export const POINTER_NAMES: Record<PointerKindName, string> = { latest_candidate: "Latest candidate", canary: "Canary", approved_default: "Approved default" };
export const POINTER_TONE: Record<PointerKindName, Tone> = { latest_candidate: "neutral", canary: "accent", approved_default: "pass" };

export function PointerBadge({ kind }: { kind: PointerKindName }) {
  return (
    <span data-testid="pointer-badge" data-pointer={kind}>
      <Badge tone={POINTER_TONE[kind]}>{POINTER_NAMES[kind]}</Badge>
    </span>
  );
}
