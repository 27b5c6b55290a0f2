// What a release bot may approve: which agents, which verdicts and steps, and a canary boundary it can
// never exceed. Policy owners write it (scope policy:write); a bot without a record approves nothing.
import { z } from "zod";
import { appendAudit, AUDIT_LOCK, type AuditActor } from "@/server/audit/audit-log";
import type { Database, Db, Tx } from "@/server/db/client";
import type { CanaryBoundary } from "@/server/gate/receipt/stage1";
import { VERDICTS } from "@/server/gate/verdict";

export const ZBotPolicy = z.object({
  botId: z.string().min(1).max(200),
  agents: z.array(z.string().min(1)).min(1),
  verdicts: z.array(z.enum(VERDICTS)).min(1),
  steps: z.array(z.enum(["canary", "default"])).min(1),
  maxCanaryTasks: z.number().int().min(0),
  maxCanaryWallSeconds: z.number().int().min(0),
  maxCanaryCostUsd: z.number().min(0),
});
export type BotPolicy = z.infer<typeof ZBotPolicy>;

export async function readBotPolicy(db: Db | Tx, botId: string): Promise<BotPolicy | null> {
  const row = await db.releaseBotPolicy.findUnique({ where: { botId } });
  if (!row) return null;
  return ZBotPolicy.parse({ ...row, agents: JSON.parse(row.agents), verdicts: JSON.parse(row.verdicts), steps: JSON.parse(row.steps) });
}

export async function setBotPolicy(database: Database, by: AuditActor, input: BotPolicy): Promise<BotPolicy> {
  const policy = ZBotPolicy.parse(input);
  return database.transaction(
    async (tx) => {
      const before = await readBotPolicy(tx, policy.botId);
      const data = {
        agents: JSON.stringify(policy.agents),
        verdicts: JSON.stringify(policy.verdicts),
        steps: JSON.stringify(policy.steps),
        maxCanaryTasks: policy.maxCanaryTasks,
        maxCanaryWallSeconds: policy.maxCanaryWallSeconds,
        maxCanaryCostUsd: policy.maxCanaryCostUsd,
        updatedById: by.id,
        updatedAt: new Date(),
      };
      await tx.releaseBotPolicy.upsert({ where: { botId: policy.botId }, create: { botId: policy.botId, ...data }, update: data });
      await appendAudit(tx, { actor: by, action: "release_bot_policy.set", target: { type: "release_bot", id: policy.botId }, before, after: policy });
      return policy;
    },
    { locks: [AUDIT_LOCK, `bot-policy:${policy.botId}`] },
  );
}

/** Every way this approval would exceed the bot's policy (empty: within it). */
export function botPolicyViolations(policy: BotPolicy | null, a: { botId: string; agent: string; verdict: string; step: string; boundary: CanaryBoundary }): string[] {
  if (!policy) return [`release bot ${a.botId} has no release policy: it may approve nothing`];
  const out: string[] = [];
  if (!policy.agents.includes("*") && !policy.agents.includes(a.agent)) out.push(`its policy does not cover agent ${a.agent}`);
  if (!policy.steps.includes(a.step as "canary")) out.push(`its policy does not allow the ${a.step} step`);
  if (!(policy.verdicts as string[]).includes(a.verdict)) out.push(`its policy does not allow acting on verdict ${a.verdict}`);
  const b = a.boundary;
  if (b.maxTasks > policy.maxCanaryTasks) out.push(`canary boundary of ${b.maxTasks} tasks exceeds its limit of ${policy.maxCanaryTasks}`);
  if (b.maxWallTimeSeconds > policy.maxCanaryWallSeconds) out.push(`canary wall time ${b.maxWallTimeSeconds}s exceeds its limit of ${policy.maxCanaryWallSeconds}s`);
  if (b.maxCostUsd > policy.maxCanaryCostUsd) out.push(`canary cost $${b.maxCostUsd} exceeds its limit of $${policy.maxCanaryCostUsd}`);
  return out.map((r) => `release bot ${a.botId} is beyond its policy: ${r}`);
}
