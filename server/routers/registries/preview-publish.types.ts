import { z } from "zod";
import { CANDIDATE_STATUSES } from "@/lib/candidates/status";
import { ZPublishRegistryEntryInput } from "./publish-registry-entry.types";
import { ZRegistryKind } from "./list-registry.types";

/** The same input as `registries.publish`: the preview validates what publishing would. */
export const ZPreviewPublishInput = ZPublishRegistryEntryInput;
const ZStatus = z.enum(["pass", "fail", "unavailable", "stale"]);
const ZCandidateStatus = z.enum(CANDIDATE_STATUSES);
export const ZPreviewPublishOutput = z.object({
  kind: ZRegistryKind,
  name: z.string(),
  agent: z.string(),
  version: z.string(),
  digest: z.string(),
  supersedes: z.object({ version: z.string(), digest: z.string() }).nullable(),
  sameAsCurrent: z.boolean(),
  agents: z.array(
    z.object({
      agent: z.string(),
      overriddenBy: z.string().nullable(),
      inputs: z.array(z.object({ input: z.string(), before: z.string(), after: z.string(), checks: z.array(z.number().int()) })),
      policy: z.array(z.object({ path: z.string(), change: z.enum(["added", "removed", "changed"]), before: z.string().optional(), after: z.string().optional(), secret: z.boolean() })),
      judged: z.number().int(),
      candidates: z.number().int(),
    }),
  ),
  changed: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      label: z.string().nullable(),
      agent: z.string(),
      now: ZCandidateStatus,
      after: ZCandidateStatus,
      changes: z.array(z.object({ check: z.number().int(), title: z.string(), scope: z.enum(["admission", "canary-stage"]), now: ZStatus, after: ZStatus, why: z.string() })),
    }),
  ),
  unchanged: z.number().int(),
});
