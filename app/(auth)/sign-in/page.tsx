import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeNext } from "@/lib/auth/public-paths";
import { setupNeeded } from "@/server/auth/setup";
import { demoAccountsShown } from "@/server/auth/demo-users";
import { getDatabase } from "@/server/db/client";
import { currentActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNext((await searchParams).next);
  const database = await getDatabase();
  if (await setupNeeded(database.db)) redirect("/setup");
  if (await currentActor()) redirect(next);
  return <SignInForm next={next} demoAccounts={demoAccountsShown()} />;
}
