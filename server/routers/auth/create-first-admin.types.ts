import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "@/lib/auth/password-policy";

export const ZCreateFirstAdminInput = z.object({
  name: z.string().trim().min(1, "your name is required").max(100),
  email: z.email("not an email address").max(200),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});
export const ZCreateFirstAdminResponse = z.object({ id: z.string(), email: z.string(), name: z.string() });
