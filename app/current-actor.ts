// The signed-in person for server components and pages (reads the request's cookies).
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { resolveActor, type Actor } from "@/server/auth/actor";
import { getDatabase } from "@/server/db/client";
import { PATH_HEADER, signInUrl } from "@/lib/auth/public-paths";

export async function currentActor(): Promise<Actor | null> {
  return resolveActor(await headers(), await getDatabase());
}

/** The signed-in person, or a redirect to sign-in that returns to this page afterwards. */
export async function requireActor(): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) redirect(signInUrl((await headers()).get(PATH_HEADER) ?? "/"));
  return actor;
}
