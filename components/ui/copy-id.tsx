"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";

/** An id in monospace, shortened for tables, copied in full with one click. */
export function CopyId({ value, short = 14 }: { value: string; short?: number }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="group inline-flex items-center gap-1 font-mono text-xs text-ink-2" title={value}>
      {value.length > short + 1 ? `${value.slice(0, short)}…` : value}
      <button
        type="button"
        aria-label={`copy ${value}`}
        className="rounded p-0.5 text-ink-3 opacity-0 group-hover:opacity-100 hover:text-ink focus:opacity-100"
        onClick={() => {
          void navigator.clipboard?.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 1200);
        }}
      >
        {copied ? <Check className="h-3 w-3 text-pass" /> : <Copy className="h-3 w-3" />}
      </button>
    </span>
  );
}
