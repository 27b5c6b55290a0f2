import { z } from "zod";
import { ZHumanGrant } from "./people.types";

export const ZListPeopleResponse = z.array(
  z.object({ id: z.string(), name: z.string(), email: z.string(), disabledAt: z.date().nullable(), createdAt: z.date(), grants: z.array(ZHumanGrant), passkeys: z.number() }),
);
