import type { ReactNode } from "react";
import { LogoMark } from "@/components/shell/logo";

// Sign-in and first-run setup: outside the dashboard shell, one card in the middle of the page.
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <div className="mb-6 flex items-center gap-2.5 text-ink">
        <LogoMark className="h-7 w-7" />
        <span className="text-lg font-semibold tracking-tight">Lightgate</span>
      </div>
      <div className="w-full max-w-sm">{children}</div>
    </div>
  );
}
