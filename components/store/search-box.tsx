"use client";

// The id search box of the store pages, bound to a URL parameter (written after typing pauses).
import { Search } from "lucide-react";
import { TextInput } from "@/components/ui/form";
import { useDebouncedUrlParam } from "./use-debounced-url";

export function SearchBox({ param = "q", label, resetOffset = true }: { param?: string; label: string; resetOffset?: boolean }) {
  const [text, setText] = useDebouncedUrlParam(param, resetOffset ? { offset: null } : {});
  return (
    <div className="relative w-full max-w-xs">
      <Search className="pointer-events-none absolute top-2.5 left-2.5 h-4 w-4 text-ink-3" />
      <TextInput aria-label={`search ${label}`} placeholder={`Search ${label}…`} value={text} onChange={(e) => setText(e.target.value)} className="pl-8" />
    </div>
  );
}
