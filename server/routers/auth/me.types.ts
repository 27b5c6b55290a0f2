import { z } from "zod";
import { ROLE_SCOPES, SCOPES, type Role } from "@/lib/auth/scopes";

const ZRole = z.enum(Object.keys(ROLE_SCOPES) as [Role, ...Role[]]);
export const ZGrant = z.object({ role: ZRole, agent: z.string().nullable() });

export const ZMeResponse = z
  .object({
    kind: z.enum(["user", "service"]),
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    roles: z.array(ZRole),
    grants: z.array(ZGrant),
    /** scopes held for every agent; per-agent ones follow from `grants` (lib/auth/scopes.ts grantsAllow) */
    scopes: z.array(z.enum(SCOPES)),
  })
  .nullable();
export type TMeResponse = z.infer<typeof ZMeResponse>;
