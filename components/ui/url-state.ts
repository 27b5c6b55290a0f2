"use client";

// Page state (filters, page, selected tab) lives in the URL so every view can be shared as a link.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";

// Two changes made before the router has applied the first (two quick clicks) must both stick: the
// second builds on the query the first asked for, as long as the URL has not moved since.
let pending: { path: string; from: string; qs: string } | null = null;

export function useUrlState() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const get = useCallback((key: string) => params.get(key), [params]);
  const getAll = useCallback((key: string) => params.getAll(key), [params]);
  const set = useCallback(
    (changes: Record<string, string | string[] | number | null | undefined>) => {
      const from = params.toString();
      const next = new URLSearchParams(pending && pending.path === pathname && pending.from === from ? pending.qs : from);
      for (const [key, value] of Object.entries(changes)) {
        next.delete(key);
        if (value === null || value === undefined || value === "") continue;
        for (const v of Array.isArray(value) ? value : [value]) next.append(key, String(v));
      }
      const qs = next.toString();
      pending = { path: pathname, from, qs };
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [params, router, pathname],
  );
  return { get, getAll, set };
}
