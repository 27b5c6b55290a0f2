import { z } from "zod";

export const ZRegisterBotKeyInput = z.object({
  botId: z.string().trim().min(1, "name the release bot's service identity").max(100),
  name: z.string().trim().min(1, "give the key a name").max(64),
  publicKey: z.string().min(1, "paste the Ed25519 public key").max(1000),
});
export const ZRegisterBotKeyResponse = z.object({ id: z.string(), botId: z.string(), name: z.string(), publicKey: z.string() });
