"use client";

// The sidebar footer's account block: who is signed in, with which roles, and the way out.
import { useState } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { ChevronUp, LogIn, LogOut, ShieldCheck, Users } from "lucide-react";
import { useMe, useCan } from "@/components/auth/me-provider";
import { ROLE_LABELS } from "@/lib/auth/scopes";
import { signInUrl } from "@/lib/auth/public-paths";
import { signOut } from "@/components/auth/session-client";

function initials(name: string): string {
  return name.split(/\s+/).filter(Boolean).slice(0, 2).map((p) => p[0]!.toUpperCase()).join("") || "?";
}

export function UserMenu() {
  const me = useMe();
  const pathname = usePathname();
  const canManagePeople = useCan("users:manage");
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  if (!me) {
    return (
      <Link href={signInUrl(pathname)} className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm font-medium text-ink-2 hover:bg-panel-2 hover:text-ink">
        <LogIn className="h-4 w-4" /> Sign in
      </Link>
    );
  }

  async function leave() {
    setSigningOut(true);
    await signOut();
    window.location.assign("/sign-in");
  }

  const roleText = me.grants.map((g) => `${ROLE_LABELS[g.role]}${g.agent ? ` (${g.agent})` : ""}`).join(", ") || "No roles yet";
  return (
    <div className="relative">
      {open && (
        <div role="menu" aria-label="Account" className="absolute right-0 bottom-full left-0 mb-1 rounded-md border border-line bg-panel p-1 shadow-lg">
          <Link role="menuitem" href="/settings/security" onClick={() => setOpen(false)} className="flex items-center gap-2 rounded px-2 py-1.5 text-sm text-ink-2 hover:bg-panel-2 hover:text-ink">
            <ShieldCheck className="h-4 w-4" /> Security &amp; passkeys
          </Link>
          {canManagePeople && (
            <Link role="menuitem" href="/settings/people" onClick={() => setOpen(false)} className="flex items-center gap-2 rounded px-2 py-1.5 text-sm text-ink-2 hover:bg-panel-2 hover:text-ink">
              <Users className="h-4 w-4" /> People &amp; roles
            </Link>
          )}
          <button role="menuitem" type="button" onClick={leave} disabled={signingOut} className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm text-ink-2 hover:bg-panel-2 hover:text-ink disabled:opacity-60">
            <LogOut className="h-4 w-4" /> {signingOut ? "Signing out…" : "Sign out"}
          </button>
        </div>
      )}
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center gap-2.5 rounded-md px-2 py-1.5 text-left hover:bg-panel-2"
      >
        <span aria-hidden="true" className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-accent/15 text-xs font-semibold text-accent">{initials(me.name)}</span>
        <span className="min-w-0 flex-1">
          {/* The button's name is what it shows, after "Account:" for screen readers. */}
          <span className="sr-only">Account: </span>
          <span className="block truncate text-sm font-medium text-ink" data-testid="user-name">{me.name}</span>{" "}
          <span className="block truncate text-xs text-ink-3" data-testid="user-roles" title={roleText}>{roleText}</span>
        </span>
        <ChevronUp aria-hidden="true" className={`h-4 w-4 text-ink-3 transition-transform ${open ? "" : "rotate-180"}`} />
      </button>
    </div>
  );
}
