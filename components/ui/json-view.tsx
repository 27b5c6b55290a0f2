"use client";

// Pretty JSON with secrets masked: any key named like api_key / token / secret / password is shown as ••••.
import { useState } from "react";
import { maskSecrets } from "@/lib/json/secrets";

export { maskSecrets };

export function JsonView({ value, collapsedAfter = 40, className = "" }: { value: unknown; collapsedAfter?: number; className?: string }) {
  const text = JSON.stringify(maskSecrets(value), null, 2) ?? "undefined";
  const lines = text.split("\n");
  const [open, setOpen] = useState(lines.length <= collapsedAfter);
  return (
    <div className={`relative rounded-md border border-line bg-panel-2 ${className}`}>
      <pre className="overflow-x-auto p-3 font-mono text-xs leading-relaxed text-ink-2">{open ? text : lines.slice(0, collapsedAfter).join("\n") + "\n…"}</pre>
      {lines.length > collapsedAfter && (
        <button type="button" onClick={() => setOpen(!open)} className="absolute right-2 bottom-2 rounded bg-panel px-2 py-0.5 text-xs text-ink-2 ring-1 ring-line hover:text-ink">
          {open ? "collapse" : `show all ${lines.length} lines`}
        </button>
      )}
    </div>
  );
}
