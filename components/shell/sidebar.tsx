"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { LogoMark } from "./logo";
import { NAV } from "./nav-items";
import { ThemeToggle } from "./theme-toggle";
import { DatabaseBadge } from "./database-badge";
import { UserMenu } from "./user-menu";
import { useMe } from "@/components/auth/me-provider";
import { grantsAllow } from "@/lib/auth/scopes";

export function Sidebar() {
  const pathname = usePathname();
  const me = useMe();
  const sections = NAV.map((s) => ({ ...s, items: s.items.filter((i) => !i.scope || (me !== null && grantsAllow(me.grants, i.scope))) })).filter((s) => s.items.length > 0);
  return (
    <aside className="sticky top-0 flex h-screen w-60 shrink-0 flex-col border-r border-line bg-panel">
      <Link href="/" className="flex items-center gap-2.5 px-5 pt-5 pb-6 text-ink">
        <LogoMark />
        <span className="text-[15px] font-semibold tracking-tight">Lightgate</span>
      </Link>
      <nav aria-label="Main" className="flex-1 space-y-6 overflow-y-auto px-3">
        {sections.map((section) => (
          <div key={section.title}>
            <div className="px-2 pb-1.5 text-[11px] font-medium tracking-wider text-ink-3 uppercase">{section.title}</div>
            <ul className="space-y-0.5">
              {section.items.map(({ href, label, icon: Icon, hint }) => {
                const active = pathname === href || pathname.startsWith(`${href}/`);
                return (
                  <li key={href}>
                    <Link
                      href={href}
                      title={hint}
                      aria-current={active ? "page" : undefined}
                      className={`group flex items-center gap-2.5 rounded-md px-2 py-1.5 text-sm transition-colors ${
                        active ? "bg-panel-2 font-medium text-ink" : "text-ink-2 hover:bg-panel-2 hover:text-ink"
                      }`}
                    >
                      <Icon className={`h-4 w-4 ${active ? "text-accent" : "text-ink-3 group-hover:text-ink-2"}`} strokeWidth={2} />
                      {label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
      <div className="space-y-2 border-t border-line p-3">
        <DatabaseBadge />
        <ThemeToggle />
        <UserMenu />
      </div>
    </aside>
  );
}
