import type { ReactNode } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { MobileNav, Sidebar } from "@/components/shell/sidebar";
import { MeProvider } from "@/components/auth/me-provider";
import { describeActor } from "@/server/auth/describe-actor";
import { isPublicPath, PATH_HEADER, signInUrl } from "@/lib/auth/public-paths";
import { currentActor } from "@/app/current-actor";

// Every dashboard page needs a session except the public status page. The proxy already sent
// cookie-less visitors to sign-in; this catches expired or revoked sessions with a cookie left over.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const path = (await headers()).get(PATH_HEADER) ?? "/";
  const actor = await currentActor();
  if (!actor && !isPublicPath(path.split("?")[0] ?? "/")) redirect(signInUrl(path));
  return (
    <MeProvider initial={describeActor(actor)}>
      <div className="min-h-screen nav:flex">
        <Sidebar />
        <MobileNav />
        <main className="min-w-0 flex-1 px-4 py-5 nav:px-8 nav:py-7">{children}</main>
      </div>
    </MeProvider>
  );
}
