import type { Metadata } from "next";
import type { ReactNode } from "react";
import { TrpcQueryProvider } from "@/components/trpc/provider";
import { THEME_BOOT_SCRIPT } from "@/components/shell/theme-toggle";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Lightgate", template: "%s · Lightgate" },
  description: "Watch agent training and decide, with evidence, what reaches production.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      </head>
      <body className="min-h-screen font-sans text-sm">
        <TrpcQueryProvider>{children}</TrpcQueryProvider>
      </body>
    </html>
  );
}
