import type { ReactNode } from "react";

/** Lets a wide table scroll inside its card on a phone instead of the page; focusable so a keyboard can scroll it. */
export function ScrollX({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="relative -mx-1 overflow-x-auto px-1" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
