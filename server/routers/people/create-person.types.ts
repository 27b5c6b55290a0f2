import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "@/lib/auth/password-policy";
import { ZHumanGrant } from "./people.types";

export const ZCreatePersonInput = z.object({
  name: z.string().trim().min(1, "a name is required").max(100),
  email: z.email("not an email address").max(200),
  /** An initial password the admin hands over; it must pass the password rule. */
  password: z.string().max(MAX_PASSWORD_LENGTH),
  grants: z.array(ZHumanGrant).min(1, "give the person at least one role").max(50),
});
export const ZCreatePersonResponse = z.object({ id: z.string(), email: z.string(), name: z.string() });
