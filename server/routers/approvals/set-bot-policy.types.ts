import { ZBotPolicy } from "@/server/approvals/bot-policy";

export const ZSetBotPolicyInput = ZBotPolicy;
export const ZSetBotPolicyResponse = ZBotPolicy;
