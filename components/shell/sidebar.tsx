"use client";

// The dashboard's navigation: a sidebar from 900 px up (the `nav:` breakpoint), and below it a top bar whose
// menu button opens the same links in a drawer, so a phone keeps the whole width for the page.
import { useEffect, useState } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Menu, X } from "lucide-react";
import { LogoMark } from "./logo";
import { NAV } from "./nav-items";
import { ThemeToggle } from "./theme-toggle";
import { DatabaseBadge } from "./database-badge";
import { UserMenu } from "./user-menu";
import { useMe } from "@/components/auth/me-provider";
import { grantsAllow } from "@/lib/auth/scopes";

function useSections() {
  const me = useMe();
  return NAV.map((s) => ({ ...s, items: s.items.filter((i) => !i.scope || (me !== null && grantsAllow(me.grants, i.scope))) })).filter((s) => s.items.length > 0);
}

function Brand() {
  return (
    <Link href="/" className="flex items-center gap-2.5 text-ink">
      <LogoMark />
      <span className="text-[15px] font-semibold tracking-tight">Lightgate</span>
    </Link>
  );
}

function NavLinks() {
  const pathname = usePathname();
  const sections = useSections();
  return (
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
  );
}

function Footer() {
  return (
    <div className="space-y-2 border-t border-line p-3">
      <DatabaseBadge />
      <ThemeToggle />
      <UserMenu />
    </div>
  );
}

export function Sidebar() {
  return (
    <aside className="sticky top-0 hidden h-screen w-60 shrink-0 flex-col border-r border-line bg-panel nav:flex">
      <div className="px-5 pt-5 pb-6">
        <Brand />
      </div>
      <NavLinks />
      <Footer />
    </aside>
  );
}

/** Below 900 px: a top bar with the menu button; the drawer closes on navigation, Escape or a tap outside. */
export function MobileNav() {
  const pathname = usePathname();
  // Open only on the page it was opened on: following any link in it closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const close = () => setOpenOn(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpenOn(null);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <div className="nav:hidden">
      <header className="sticky top-0 z-30 flex h-12 items-center justify-between border-b border-line bg-panel px-4">
        <Brand />
        <button
          type="button"
          aria-label="Menu"
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpenOn(pathname)}
          className="-mr-2 rounded-md p-2 text-ink-2 hover:bg-panel-2 hover:text-ink"
        >
          <Menu className="h-5 w-5" />
        </button>
      </header>
      {open && (
        <div className="fixed inset-0 z-40">
          <div className="absolute inset-0 bg-ink/40" aria-hidden="true" onClick={close} />
          <div id="mobile-menu" role="dialog" aria-modal="true" aria-label="Menu" className="absolute inset-y-0 right-0 flex w-72 max-w-[85vw] flex-col border-l border-line bg-panel shadow-xl">
            <div className="flex items-center justify-between px-5 pt-4 pb-5">
              <Brand />
              <button type="button" aria-label="Close menu" onClick={close} className="-mr-2 rounded-md p-2 text-ink-2 hover:bg-panel-2 hover:text-ink">
                <X className="h-5 w-5" />
              </button>
            </div>
            <NavLinks />
            <Footer />
          </div>
        </div>
      )}
    </div>
  );
}
