"use client";

// A text box bound to one URL parameter, written back after the person stops typing.
import { useEffect, useState } from "react";
import { useUrlState } from "@/components/ui/url-state";

export function useDebouncedUrlParam(key: string, extra: Record<string, null> = {}, delayMs = 300) {
  const url = useUrlState();
  const current = url.get(key) ?? "";
  const [text, setText] = useState(current);
  // The URL changed under us (a "clear filters" link, back/forward): show what it says now.
  const [seen, setSeen] = useState(current);
  if (current !== seen) {
    setSeen(current);
    setText(current);
  }
  useEffect(() => {
    if (text.trim() === current) return;
    const t = setTimeout(() => url.set({ [key]: text.trim() || null, ...extra }), delayMs);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- extra is a constant reset list
  }, [text, current, key, delayMs, url]);
  return [text, setText] as const;
}
