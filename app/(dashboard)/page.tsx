import { redirect } from "next/navigation";
import { landingPath } from "@/lib/auth/landing";
import { requireActor } from "@/app/current-actor";

/** "/" sends each person where their roles work: approvers to the inbox, trainers to training, policy owners to the registries, everyone else to the candidates. */
export default async function Home() {
  redirect(landingPath((await requireActor()).roles));
}
