import { z } from "zod";

/** What anyone may learn: whether the instance is healthy. */
export const ZPublicStatus = z.object({ ok: z.boolean(), checkedAt: z.date() });

/** What a signed-in person with a role sees besides: the database, its migrations and the serving process. */
export const ZStatusDetails = ZPublicStatus.extend({
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
});

// Details first: a union tries its members in order and an object member strips keys it does not know.
export const ZStatusResponse = z.union([ZStatusDetails, ZPublicStatus]);
export type TStatusResponse = z.infer<typeof ZStatusResponse>;
