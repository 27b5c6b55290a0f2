import { z } from "zod";

export const ZStatusResponse = z.object({
  ok: z.boolean(),
  version: z.string(),
  database: z.object({
    dialect: z.enum(["sqlite", "postgresql"]),
    url: z.string(),
    serverVersion: z.string(),
    latencyMs: z.number(),
    migrations: z.object({
      onDisk: z.array(z.string()),
      applied: z.array(z.string()),
      pending: z.array(z.string()),
      failed: z.array(z.string()),
      upToDate: z.boolean(),
    }),
  }),
  process: z.object({ uptimeSeconds: z.number(), rssMb: z.number(), node: z.string(), pid: z.number() }),
  checkedAt: z.date(),
});
export type TStatusResponse = z.infer<typeof ZStatusResponse>;
