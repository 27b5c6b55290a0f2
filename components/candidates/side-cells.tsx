// What the evidence cards share when they put the exact parent beside the candidate: a figure or why there is
// none, a signed change, and the sentence saying the parent has nothing to compare.
import { cellText, cellValue, type Cell } from "@/lib/candidates/side-by-side";
import type { CandidateDetail } from "./types";

/** The parent as the evidence cards read it: its summary (is it a candidate, is its receipt intact) and evidence. */
export type ParentSide = Pick<CandidateDetail["parent"], "candidate" | "evidence">;

/** A count; `bad` colours a positive count as a failure (rollouts missing a family). */
export function CellFigure({ cell, bad = false }: { cell: Cell; bad?: boolean }) {
  const v = cellValue(cell);
  if (v === null) return <span className="text-xs text-unavailable">{cellText(cell)}</span>;
  return <span className={bad && v > 0 ? "text-fail" : undefined}>{v}</span>;
}

/** A row's parent cell (only when the parent has evidence to show) and candidate cell. */
export function SideCells({ parent, candidate, showParent, bad = false }: { parent: Cell; candidate: Cell; showParent: boolean; bad?: boolean }) {
  return (
    <>
      {showParent && (
        <td className="py-1 pl-2 text-right tabular-nums">
          <CellFigure cell={parent} bad={bad} />
        </td>
      )}
      <td className="py-1 pl-2 text-right tabular-nums">
        <CellFigure cell={candidate} bad={bad} />
      </td>
    </>
  );
}

/** Candidate minus parent; `worseWhen` says which sign is the candidate doing worse. */
export function Change({ delta, worseWhen = "up", digits = 0, unit = "" }: { delta: number | null; worseWhen?: "up" | "down"; digits?: number; unit?: string }) {
  if (delta === null) return <span className="text-ink-3">—</span>;
  const rounded = Number(delta.toFixed(digits));
  if (rounded === 0) return <span className="text-ink-2">0{unit}</span>;
  const worse = worseWhen === "up" ? rounded > 0 : rounded < 0;
  return (
    <span className={worse ? "text-fail" : "text-pass"}>
      {rounded > 0 ? "+" : "−"}
      {Math.abs(rounded).toFixed(digits)}
      {unit}
    </span>
  );
}

export function ParentAbsent({ sentence }: { sentence: string | null }) {
  if (!sentence) return null;
  return (
    <p className="mb-3 text-sm text-ink-2" data-testid="parent-absent">
      {sentence}
    </p>
  );
}
