import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { PeopleAdmin } from "@/components/settings/people-admin";
import { BotKeysAdmin } from "@/components/settings/bot-keys-admin";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "People" };

export default async function PeoplePage() {
  const actor = await requireActor();
  if (!actorCan(actor, "users:manage")) return <NotAllowed scope="users:manage" />;
  return (
    <>
      <PageHeader title="People" description="Who can sign in, with which roles — for every agent or for one — and the keys release bots sign with." />
      <div className="space-y-6">
        <PeopleAdmin selfId={actor.id} />
        {actorCan(actor, "apikeys:manage") && <BotKeysAdmin />}
      </div>
    </>
  );
}
