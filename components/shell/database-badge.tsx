"use client";

import Link from "next/link";
import { Database } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";

export function DatabaseBadge() {
  const trpc = useTRPC();
  const { data, isError } = useQuery(trpc.system.status.queryOptions(undefined, { refetchInterval: 15_000 }));
  const healthy = data?.ok && !isError;
  return (
    <Link href="/status" className="flex items-center gap-2 rounded-md px-2 py-1.5 text-xs text-ink-2 hover:bg-panel-2" title="Instance status">
      <Database className="h-3.5 w-3.5 text-ink-3" />
      <span className="flex-1 truncate">{data ? ("database" in data ? (data.database.dialect === "sqlite" ? "SQLite · embedded" : "PostgreSQL") : healthy ? "healthy" : "not healthy") : isError ? "offline" : "…"}</span>
      <span className={`h-2 w-2 rounded-full ${healthy ? "bg-pass" : isError || data ? "bg-fail" : "bg-unavailable"}`} aria-label={healthy ? "healthy" : "unhealthy"} />
    </Link>
  );
}
