import { z } from "zod";

export const ZListBotKeysResponse = z.array(
  z.object({ id: z.string(), botId: z.string(), name: z.string(), publicKey: z.string(), createdAt: z.date(), createdBy: z.string(), revokedAt: z.date().nullable() }),
);
