import { createTRPCRouter } from "@/server/trpc";
import { listPeopleRoute } from "./list-people";
import { createPersonRoute } from "./create-person";
import { grantRoleRoute } from "./grant-role";
import { revokeRoleRoute } from "./revoke-role";
import { setPersonActiveRoute } from "./set-person-active";

export const peopleRouter = createTRPCRouter({
  list: listPeopleRoute,
  create: createPersonRoute,
  grantRole: grantRoleRoute,
  revokeRole: revokeRoleRoute,
  setActive: setPersonActiveRoute,
});
