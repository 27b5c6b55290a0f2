// The one way pages, forms and controls say an action is not allowed; lib/auth/not-allowed.ts words it (the
// action, the scope, the agent, the roles that hold it — from the scope table), never the component.
import { Lock } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { needsScope } from "@/lib/auth/not-allowed";
import type { Scope } from "@/lib/auth/scopes";

/** `<subject> needs the "<scope>" scope[ for <agent>], which the … roles hold.` — inline, inside other text. */
export function ScopeNeeded({ scope, subject = "It", agent }: { scope: Scope; subject?: string; agent?: string | null }) {
  return <>{needsScope(subject, scope, agent)}</>;
}

/** Shown instead of a page the signed-in person may not use; the server refuses its data anyway. */
export function NotAllowed({ scope }: { scope: Scope }) {
  return (
    <EmptyState title="You do not have access to this page" icon={<Lock className="h-6 w-6" />}>
      <ScopeNeeded subject="This page" scope={scope} /> Ask an admin for such a role.
    </EmptyState>
  );
}

/** In place of a control the signed-in person may not use: what it does and the scope it needs. */
export function NotAllowedNote({ subject, scope, agent, testId, className = "" }: { subject: string; scope: Scope; agent?: string | null; testId?: string; className?: string }) {
  return (
    <p className={`flex items-start gap-1.5 text-xs text-ink-2 ${className}`} data-testid={testId}>
      <Lock className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden="true" />
      <span>
        <ScopeNeeded scope={scope} subject={subject} agent={agent} />
      </span>
    </p>
  );
}
