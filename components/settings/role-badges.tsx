"use client";

import { X } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { ROLE_LABELS, type HumanGrant } from "@/lib/auth/scopes";

export function grantLabel(g: HumanGrant): string {
  return `${ROLE_LABELS[g.role]}${g.agent ? ` · ${g.agent}` : ""}`;
}

export function RoleBadges({ grants, onRemove, disabled }: { grants: HumanGrant[]; onRemove?: (g: HumanGrant) => void; disabled?: boolean }) {
  if (grants.length === 0) return <span className="text-xs text-ink-3">no roles</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {grants.map((g) => (
        <Badge key={`${g.role}@${g.agent ?? "*"}`} tone={g.role === "admin" ? "accent" : "neutral"} title={g.agent ? `for agent ${g.agent} only` : "for every agent"}>
          {grantLabel(g)}
          {onRemove && (
            <button type="button" disabled={disabled} aria-label={`Remove ${grantLabel(g)}`} onClick={() => onRemove(g)} className="-mr-0.5 rounded hover:text-fail disabled:opacity-50">
              <X className="h-3 w-3" />
            </button>
          )}
        </Badge>
      ))}
    </span>
  );
}
