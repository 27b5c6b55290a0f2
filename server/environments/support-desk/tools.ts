// The support desk's tools as versioned contracts. An environment pins one version per tool; every
// call is checked against the pinned contract, so pinning an older contract really changes behaviour
// (calls it does not allow fail), and the pinned digests are part of the environment's spec digest.
import { digestOf } from "@/server/digest";
import type { Rng } from "../prng";
import type { EnvironmentOptions, ToolArgumentSpec, ToolCall, ToolContract } from "../types";
import { INTENTS } from "./catalog";
import { ownValue } from "@/lib/own";

const CATEGORY = [...INTENTS, "unknown"] as const;

function arg(description: string, opts: { required?: boolean; enum?: readonly string[] } = {}): ToolArgumentSpec {
  return { type: "string", required: opts.required ?? true, description, ...(opts.enum ? { enum: opts.enum } : {}) };
}

function contract(c: Omit<ToolContract, "digest">): ToolContract {
  return { ...c, digest: digestOf(c) };
}

/** Every published version of every tool, oldest first. */
export const TOOL_CONTRACT_HISTORY: Record<string, readonly ToolContract[]> = {
  search_kb: [
    contract({
      name: "search_kb",
      version: "1.0.0",
      description: "Search the knowledge base for the article that answers a ticket's intent.",
      arguments: { intent: arg("what to search for", { enum: CATEGORY }), language: arg("ticket language") },
      sideEffects: [],
      destructive: false,
    }),
  ],
  update_ticket: [
    contract({
      name: "update_ticket",
      version: "1.0.0",
      description: "Set a ticket's category and priority.",
      arguments: { category: arg("ticket category", { enum: CATEGORY }), priority: arg("priority", { enum: ["low", "medium", "high", "critical"] }) },
      sideEffects: ["ticket.category", "ticket.priority"],
      destructive: false,
    }),
    contract({
      name: "update_ticket",
      version: "2.0.0",
      description: "Set a ticket's category, priority and resolution state.",
      arguments: {
        category: arg("ticket category", { enum: CATEGORY }),
        priority: arg("priority", { enum: ["low", "medium", "high", "critical"] }),
        resolution: arg("resolution state", { enum: ["answered", "pending"] }),
      },
      sideEffects: ["ticket.category", "ticket.priority", "ticket.resolution"],
      destructive: false,
    }),
  ],
  close_ticket: [
    contract({
      name: "close_ticket",
      version: "1.0.0",
      description: "Close a ticket.",
      arguments: { resolution: arg("final resolution", { enum: ["answered", "pending"] }) },
      sideEffects: ["ticket.status", "ticket.resolution"],
      destructive: false,
    }),
  ],
  escalate_ticket: [
    contract({
      name: "escalate_ticket",
      version: "1.1.0",
      description: "Hand a ticket to a human queue.",
      arguments: { queue: arg("human queue", { enum: ["support", "legal", "privacy"] }), category: arg("ticket category", { enum: CATEGORY }) },
      sideEffects: ["ticket.status", "ticket.assignee", "ticket.queue", "ticket.category"],
      destructive: false,
    }),
  ],
  delete_account: [
    contract({
      name: "delete_account",
      version: "1.0.0",
      description: "Irreversibly delete the customer's account. Must only ever run after a human approved it.",
      arguments: { account_ref: arg("account reference") },
      sideEffects: ["account.deleted"],
      destructive: true,
    }),
  ],
};

/** The newest version of each tool: the default pins. */
export const LATEST_TOOL_VERSIONS: Record<string, string> = Object.fromEntries(
  Object.entries(TOOL_CONTRACT_HISTORY).map(([name, versions]) => [name, versions[versions.length - 1]!.version]),
);

export function pinContracts(pins: Record<string, string> = {}): ToolContract[] {
  for (const name of Object.keys(pins)) {
    if (!Object.hasOwn(TOOL_CONTRACT_HISTORY, name)) throw new Error(`unknown tool "${name}" (known: ${Object.keys(TOOL_CONTRACT_HISTORY).join(", ")})`);
  }
  return Object.entries(TOOL_CONTRACT_HISTORY).map(([name, versions]) => {
    const version = ownValue(pins, name) ?? LATEST_TOOL_VERSIONS[name]!;
    const found = versions.find((c) => c.version === version);
    if (!found) throw new Error(`tool ${name} has no contract version ${version} (known: ${versions.map((c) => c.version).join(", ")})`);
    return found;
  });
}

/** Arguments that break the contract, as readable reasons (empty when the call is allowed). */
export function contractViolations(c: ToolContract, args: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const key in args) {
    if (!Object.hasOwn(c.arguments, key)) problems.push(`argument "${key}" is not in ${c.name}@${c.version}`);
  }
  for (const key in c.arguments) {
    const spec = c.arguments[key]!;
    const value = args[key];
    if (value === undefined) {
      if (spec.required) problems.push(`${c.name}@${c.version} requires "${key}"`);
    } else if (spec.enum && !spec.enum.includes(value)) {
      problems.push(`"${key}" must be one of ${spec.enum.join("|")} in ${c.name}@${c.version} (got "${value}")`);
    }
  }
  return problems;
}

/**
 * Runs one tool call's failure model. Always draws three numbers, whatever the outcome, so one flaky
 * call never shifts the draws of later calls in the episode.
 */
export function callTool(c: ToolContract, args: Record<string, string>, rng: Rng, options: EnvironmentOptions): ToolCall {
  const fails = rng.next() < options.toolFailureRate;
  const hangs = rng.next() < options.timeoutShare;
  const latencyMs = 40 + rng.int(360);
  const base = { tool: c.name, version: c.version, contractDigest: c.digest, arguments: args };
  const violations = contractViolations(c, args);
  if (violations.length > 0) return { ...base, status: "error", reason: `contract violation: ${violations.join("; ")}`, latencyMs };
  if (fails && hangs) return { ...base, status: "timeout", reason: `${c.name} did not answer within 30 s`, latencyMs: 30_000 };
  if (fails) return { ...base, status: "error", reason: `${c.name} returned 503 Service Unavailable`, latencyMs };
  return { ...base, status: "ok", reason: null, latencyMs };
}
