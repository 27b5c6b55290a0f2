import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { setupNeeded } from "@/server/auth/setup";
import { getDatabase } from "@/server/db/client";

export const metadata: Metadata = { title: "Set up" };
export const dynamic = "force-dynamic";

// Exists only until the first admin is created; afterwards it is gone for good.
export default async function SetupPage() {
  if (!(await setupNeeded((await getDatabase()).db))) redirect("/sign-in");
  return <SetupForm />;
}
