"use client";

// The labels of a curve chart's horizontal reference lines, drawn inside the plot and laid out together so
// two close lines ("parent locked gate 0.785", "candidate locked gate 0.753") never print over each other.
// A child of the Recharts chart (Recharts 3 renders any child in its SVG), reading the y scale it uses, and
// drawn in Recharts' label layer so the curves never cover the text.
import { DefaultZIndexes, usePlotArea, useYAxisScale, ZIndexLayer } from "recharts";
import { separateLabels } from "@/lib/charts/label-layout";

export type LabelledReference = { y: number; label: string; color?: string };

const FONT_SIZE = 11;
/** One line of 11 px text, its 3 px halo and a little air: the rendered box measured 15 px tall (e2e/candidates.spec.ts checks the boxes never overlap). */
const LINE_GAP = FONT_SIZE + 7;
/** A label's baseline sits this far above its line when nothing crowds it. */
const ABOVE_LINE = 4;

export function ReferenceLabels({ references }: { references: readonly LabelledReference[] }) {
  const scale = useYAxisScale();
  const plot = usePlotArea();
  if (!scale || !plot || references.length === 0) return null;
  const wanted = references.map((r) => {
    const y = scale(r.y);
    return (typeof y === "number" && Number.isFinite(y) ? y : plot.y) - ABOVE_LINE;
  });
  const ys = separateLabels(wanted, LINE_GAP, [plot.y + FONT_SIZE, plot.y + plot.height - 2]);
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.label}>
      <g className="reference-labels">
        {references.map((r, i) => (
          <text
            key={r.label}
            x={plot.x + 6}
            y={ys[i]}
            fontSize={FONT_SIZE}
            fill={r.color ?? "var(--lg-ink-3)"}
            // A halo in the panel's colour keeps the label legible where it crosses a curve.
            stroke="var(--lg-panel)"
            strokeWidth={3}
            paintOrder="stroke"
            strokeLinejoin="round"
          >
            {r.label}
          </text>
        ))}
      </g>
    </ZIndexLayer>
  );
}
