"use client";

// Page state (filters, page, selected tab) lives in the URL so every view can be shared as a link.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useOptimistic, useTransition } from "react";

// Two changes made before the router has applied the first (two quick clicks) must both stick: the
// second builds on the query the first asked for, as long as the URL has not moved since.
let pending: { path: string; from: string; qs: string } | null = null;

export function useUrlState() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const from = params.toString();
  // What the page reads is the query just asked for, from the click on: a ticked box stays ticked and a
  // chosen filter shows while the router applies the change (React keeps it until that navigation commits).
  const [qs, setQsNow] = useOptimistic(from);
  const [, startTransition] = useTransition();
  const shown = useMemo(() => new URLSearchParams(qs), [qs]);
  const get = useCallback((key: string) => shown.get(key), [shown]);
  const getAll = useCallback((key: string) => shown.getAll(key), [shown]);
  const set = useCallback(
    (changes: Record<string, string | string[] | number | null | undefined>) => {
      const next = new URLSearchParams(pending && pending.path === pathname && pending.from === from ? pending.qs : from);
      for (const [key, value] of Object.entries(changes)) {
        next.delete(key);
        if (value === null || value === undefined || value === "") continue;
        for (const v of Array.isArray(value) ? value : [value]) next.append(key, String(v));
      }
      const nextQs = next.toString();
      pending = { path: pathname, from, qs: nextQs };
      startTransition(() => {
        setQsNow(nextQs);
        router.replace(nextQs ? `${pathname}?${nextQs}` : pathname, { scroll: false });
      });
    },
    [from, router, pathname, setQsNow],
  );
  return { get, getAll, set };
}
