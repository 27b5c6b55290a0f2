import type { ReactNode } from "react";

export type Tone = "pass" | "fail" | "warn" | "stale" | "unavailable" | "neutral" | "accent";

const TONES: Record<Tone, string> = {
  pass: "text-pass bg-pass/10 ring-pass/25",
  fail: "text-fail bg-fail/10 ring-fail/25",
  warn: "text-warn bg-warn/10 ring-warn/25",
  stale: "text-stale bg-stale/10 ring-stale/25",
  unavailable: "text-unavailable bg-unavailable/10 ring-unavailable/25",
  neutral: "text-ink-2 bg-panel-2 ring-line",
  accent: "text-accent bg-accent/10 ring-accent/25",
};

export function Badge({ tone = "neutral", children, title }: { tone?: Tone; children: ReactNode; title?: string }) {
  return (
    <span title={title} className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONES[tone]}`}>
      {children}
    </span>
  );
}
