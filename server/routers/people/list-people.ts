import { scopedProcedure } from "@/server/trpc";
import { listUsers } from "@/server/auth/users";
import { ZListPeopleResponse } from "./list-people.types";

export const listPeopleRoute = scopedProcedure("users:manage").output(ZListPeopleResponse).query(({ ctx }) => listUsers(ctx.db));
