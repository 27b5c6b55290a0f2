import { Lock } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import type { Scope } from "@/lib/auth/scopes";

/** Shown instead of a page the signed-in person may not use; the server refuses its data anyway. */
export function NotAllowed({ scope }: { scope: Scope }) {
  return (
    <EmptyState title="You do not have access to this page" icon={<Lock className="h-6 w-6" />}>
      It needs the <code className="font-mono">{scope}</code> scope. Ask an admin for a role that includes it.
    </EmptyState>
  );
}
