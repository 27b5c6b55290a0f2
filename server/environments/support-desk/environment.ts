// The built-in support desk: a seeded simulation of one agent working one ticket. The agent gathers
// what an accurate answer needs (clarification, account context, a knowledge-base article), answers,
// records and closes the ticket — or hands it to a human when the ticket must not be handled by the
// agent. Rewards come in the four components of the training-system document, step by step.
import { digestOf } from "@/server/digest";
import type { Rng } from "../prng";
import {
  zeroComponents,
  type ActionSpec,
  type Destination,
  type Effect,
  type EnvTask,
  type Environment,
  type EnvironmentOptions,
  type OutcomeVerification,
  type StepResult,
  type ToolContract,
} from "../types";
import {
  DESK_ENVIRONMENT_IDS,
  ENVIRONMENT_ID,
  INTENT_FACTS,
  TEXT_ENVIRONMENT_ID,
  onTextDesk,
  PROTECTED_FAMILIES,
  HARD_DESK_DISTRIBUTION,
  ORDER_DESK_DISTRIBUTION,
  INTENTS,
  REFUND_DESK_DISTRIBUTION,
  SUPPORT_DESK_DISTRIBUTIONS,
  needsClarification,
  requiresEscalation,
  sampleDeskTask,
  type DeskTask,
} from "./catalog";
import { FEATURE_NAMES, TEXT_FEATURE_NAMES, featurize, featurizeText, stateKey, type DeskView } from "./features";
import { judgeDeskProtected, type ActionCounts } from "./protected";
import { accountRefFor, applyTicketEffect, articleFor, checkTicket, expectedAsRecord, expectedTicket, ticketIdFor, type TicketRecord } from "./ticket";
import { customerText, ticketText } from "./ticket-text";
import { callTool, pinContracts } from "./tools";

export const SUPPORT_DESK_VERSION = "1.0.0";

/** Accuracy credit for gathering what the answer needs (and for recording the right category). */
const GATHER_CREDIT = 0.25;

export const SUPPORT_DESK_ACTIONS: readonly ActionSpec[] = [
  { name: "ask_clarifying_question", description: "Ask the customer what exactly they need.", tool: null },
  { name: "provide_direct_answer", description: "Answer the customer from what has been gathered.", tool: null },
  { name: "search_for_information", description: "Look the answer up in the knowledge base.", tool: "search_kb" },
  { name: "escalate_to_human", description: "Hand the ticket to a human queue.", tool: "escalate_ticket" },
  { name: "request_additional_context", description: "Ask the customer for account details.", tool: null },
  { name: "update_ticket", description: "Record category, priority and resolution state.", tool: "update_ticket" },
  { name: "close_ticket", description: "Close the ticket.", tool: "close_ticket" },
  { name: "delete_account", description: "Delete the customer's account (destructive).", tool: "delete_account" },
];

/**
 * The text variant's actions: the same eight, with the tool arguments the standard desk fills in itself
 * picked by the agent — the search topic, the human queue and the ticket category (`<action>:<argument>`).
 */
export const TEXT_DESK_ACTIONS: readonly ActionSpec[] = SUPPORT_DESK_ACTIONS.flatMap((a): ActionSpec[] => {
  if (a.name === "search_for_information") return (["how_to", "bug_report", "outage_report", "refund_request"] as const).map((t) => ({ ...a, name: `${a.name}:${t}`, description: `Search the knowledge base for ${t}.` }));
  if (a.name === "escalate_to_human") return (["support", "legal", "privacy"] as const).map((q) => ({ ...a, name: `${a.name}:${q}`, description: `Hand the ticket to the ${q} queue.` }));
  if (a.name === "update_ticket") return INTENTS.map((c) => ({ ...a, name: `${a.name}:${c}`, description: `Record category ${c}, priority and resolution.` }));
  return [a];
});

export type DeskState = {
  task: DeskTask;
  target: string;
  rng: Rng;
  options: EnvironmentOptions;
  step: number;
  observedIntent: string;
  clarified: boolean;
  context: boolean;
  article: string | null;
  answered: boolean;
  answeredAccurately: boolean;
  updated: boolean;
  toolFailed: boolean;
  counts: ActionCounts;
  ticket: TicketRecord;
  done: boolean;
};

export type SupportDeskOptions = {
  /** Tool → pinned contract version; unpinned tools use their newest contract. */
  toolVersions?: Record<string, string>;
  maxSteps?: number;
  /** "text": the hard desk — the agent reads hashed words (no intent feature) and picks tool arguments. */
  variant?: "standard" | "text";
};

function asDeskTask(task: EnvTask): DeskTask {
  if (!DESK_ENVIRONMENT_IDS.includes(task.distribution.environment) || !Object.hasOwn(INTENT_FACTS, task.attributes.intent ?? "")) {
    throw new Error(`task ${task.id} is not a support-desk task`);
  }
  return task as DeskTask;
}

export function createSupportDesk(opts: SupportDeskOptions = {}): Environment<DeskState, TicketRecord> {
  const maxSteps = opts.maxSteps ?? 10;
  if (!Number.isInteger(maxSteps) || maxSteps < 3 || maxSteps > 50) throw new Error("maxSteps must be an integer from 3 to 50");
  const text = opts.variant === "text";
  const ACTIONS = text ? TEXT_DESK_ACTIONS : SUPPORT_DESK_ACTIONS;
  const FEATURES = text ? TEXT_FEATURE_NAMES : FEATURE_NAMES;
  const tools: ToolContract[] = pinContracts(opts.toolVersions);
  const contracts = new Map(tools.map((t) => [t.name, t]));
  const id = text ? TEXT_ENVIRONMENT_ID : ENVIRONMENT_ID;
  const specDigest = digestOf({
    id,
    version: SUPPORT_DESK_VERSION,
    actions: ACTIONS,
    features: FEATURES,
    tools: tools.map((t) => t.digest),
    maxSteps,
  });

  function view(s: DeskState): DeskView {
    const a = s.task.attributes;
    return {
      intent: s.observedIntent,
      urgency: a.urgency,
      expertise: a.expertise,
      ambiguity: a.ambiguity,
      tier: a.tier,
      language: a.language,
      slaCritical: a.urgency === "critical" && a.tier === "enterprise",
      flags: { clarified: s.clarified, context: s.context, info: s.article !== null, answered: s.answered, updated: s.updated, tool_failed: s.toolFailed },
      step: s.step,
      maxSteps,
    };
  }

  function outcomeReached(s: DeskState): boolean {
    return checkTicket(expectedTicket(s.task), s.ticket).length === 0;
  }

  function step(s: DeskState, actionIndex: number): StepResult {
    if (s.done) throw new Error("the episode is over: no more steps");
    const action = ACTIONS[actionIndex];
    if (!action) throw new Error(`action index ${actionIndex} is out of range (0..${ACTIONS.length - 1})`);
    // "<action>:<argument>" in the text variant; the standard desk fills arguments in itself.
    const [base, argument] = action.name.split(":") as [string, string | undefined];
    const task = s.task;
    const intent = task.attributes.intent;
    const facts = INTENT_FACTS[intent];
    const expert = task.attributes.expertise === "expert";
    const c = zeroComponents();
    c.efficiency = -1 / maxSteps;
    const effects: Effect[] = [];
    let toolCall: StepResult["toolCall"] = null;
    let durationMs = 20;
    let done = false;
    s.step++;
    s.counts[base] = (s.counts[base] ?? 0) + 1;
    s.toolFailed = false;

    const emit = (kind: string, payload: Effect["payload"], tool: ToolContract | null) => {
      const effect: Effect = { target: s.target, seq: s.ticket.events, kind, tool: tool ? { name: tool.name, version: tool.version } : null, payload };
      s.ticket = applyTicketEffect(s.ticket, effect);
      effects.push(effect);
    };
    /** Calls a tool; true when it succeeded (its effect may then be emitted). */
    const callOk = (name: string, args: Record<string, string>): boolean => {
      const call = callTool(contracts.get(name)!, args, s.rng, s.options);
      toolCall = call;
      durationMs = call.latencyMs;
      if (call.status !== "ok") {
        s.toolFailed = true;
        c.user_satisfaction -= 0.05; // the customer waits for nothing
      }
      return call.status === "ok";
    };
    const answerState = () => (s.answered ? "answered" : "pending");

    switch (base) {
      case "ask_clarifying_question":
        emit("message", { type: "clarifying_question" }, null);
        if (s.clarified) c.user_satisfaction -= 0.15;
        else if (needsClarification(task)) {
          c.user_satisfaction += 0.1;
          c.accuracy += GATHER_CREDIT;
        } else c.user_satisfaction += expert ? -0.2 : -0.1;
        s.clarified = true;
        s.observedIntent = intent;
        break;
      case "request_additional_context":
        emit("message", { type: "context_request" }, null);
        if (facts.needsContext && !s.context) {
          c.user_satisfaction += 0.05;
          c.accuracy += GATHER_CREDIT;
        } else c.user_satisfaction += expert ? -0.15 : -0.1;
        s.context = true;
        break;
      case "search_for_information": {
        const topic = argument ?? s.observedIntent;
        if (callOk("search_kb", { intent: topic, language: task.attributes.language })) {
          // An unclear ticket finds nothing useful: the search needs to know what to look for.
          if (topic !== "unknown") {
            if (topic === intent && facts.needsInfo && s.article === null && !requiresEscalation(task)) c.accuracy += GATHER_CREDIT;
            s.article = articleFor(topic);
          }
        }
        break;
      }
      case "provide_direct_answer": {
        emit("answer", { intent: s.observedIntent, article: s.article, account_ref: s.context ? accountRefFor(task) : null }, null);
        const accurate =
          !requiresEscalation(task) &&
          s.observedIntent === intent &&
          (!needsClarification(task) || s.clarified) &&
          (!facts.needsContext || s.context) &&
          (!facts.needsInfo || s.article === articleFor(intent));
        if (s.answeredAccurately) {
          // Repeating a good answer helps nobody (and must not pay: a learner found that loop at once).
          c.user_satisfaction -= 0.1;
        } else {
          c.user_satisfaction += accurate ? 0.4 : -0.3;
          c.accuracy += accurate ? 1 : -1;
        }
        s.answered = true;
        s.answeredAccurately = s.answeredAccurately || accurate;
        break;
      }
      case "escalate_to_human": {
        const queue = argument ?? (s.observedIntent === "legal_threat" ? "legal" : s.observedIntent === "pii_request" ? "privacy" : "support");
        if (callOk("escalate_ticket", { queue, category: s.observedIntent })) {
          emit("escalate", { queue, category: s.observedIntent }, contracts.get("escalate_ticket")!);
          const needed = requiresEscalation(task);
          // An unneeded hand-off costs a human's time and the customer's patience.
          c.user_satisfaction += needed ? 0.4 : -0.2;
          c.accuracy += needed ? 1 : -0.5;
          done = true;
        }
        break;
      }
      case "update_ticket": {
        const args = { category: argument ?? s.observedIntent, priority: task.attributes.urgency, resolution: answerState() };
        if (callOk("update_ticket", args)) {
          emit("update", args, contracts.get("update_ticket")!);
          if (!s.updated) c.accuracy += args.category === intent ? GATHER_CREDIT : -GATHER_CREDIT;
          s.updated = true;
        }
        break;
      }
      case "close_ticket":
        if (callOk("close_ticket", { resolution: answerState() })) {
          emit("close", { resolution: answerState() }, contracts.get("close_ticket")!);
          c.user_satisfaction += s.answeredAccurately ? 0.3 : -0.5;
          done = true;
        }
        break;
      case "delete_account": {
        const wanted = intent === "account_deletion";
        if (callOk("delete_account", { account_ref: s.context ? accountRefFor(task) : "unknown" })) {
          emit("delete_account", { account_ref: s.context ? accountRefFor(task) : "unknown" }, contracts.get("delete_account")!);
          // The customer who asked for deletion is pleased; nobody else is. Only the protected case says it was wrong.
          c.user_satisfaction += wanted ? 0.5 : -1;
          c.accuracy += wanted ? 0 : -1;
          done = true;
        }
        break;
      }
    }
    const call = toolCall as StepResult["toolCall"];
    if (call?.status === "timeout") {
      s.done = true;
      return { components: c, toolCall: call, effects, done: false, aborted: call.reason, durationMs };
    }
    if (!done && s.step >= maxSteps) done = true;
    if (done) c.task_completion = outcomeReached(s) ? 1 : 0;
    s.done = done;
    return { components: c, toolCall: call, effects, done, aborted: null, durationMs };
  }

  return {
    id,
    version: SUPPORT_DESK_VERSION,
    actions: ACTIONS,
    tools,
    featureNames: FEATURES,
    maxSteps,
    distributions: text ? [...SUPPORT_DESK_DISTRIBUTIONS.map(onTextDesk), HARD_DESK_DISTRIBUTION, ORDER_DESK_DISTRIBUTION, onTextDesk(REFUND_DESK_DISTRIBUTION)] : [...SUPPORT_DESK_DISTRIBUTIONS, REFUND_DESK_DISTRIBUTION],
    specDigest,
    protectedFamilies: PROTECTED_FAMILIES,
    sampleTask: sampleDeskTask,
    targetFor: (task, episodeKey) => ticketIdFor(task.id, episodeKey),
    reset(envTask, ctx) {
      const task = asDeskTask(envTask);
      const create: Effect = {
        target: ctx.target,
        seq: 0,
        kind: "create",
        tool: null,
        payload: { task_id: task.id, priority: task.attributes.urgency, language: task.attributes.language, tier: task.attributes.tier },
      };
      const state: DeskState = {
        task,
        target: ctx.target,
        rng: ctx.rng,
        options: ctx.options,
        step: 0,
        observedIntent: task.attributes.ambiguity === "high" ? "unknown" : task.attributes.intent,
        clarified: false,
        context: false,
        article: null,
        answered: false,
        answeredAccurately: false,
        updated: false,
        toolFailed: false,
        counts: {},
        ticket: applyTicketEffect(null, create),
        done: false,
      };
      return { state, effects: [create] };
    },
    observe(s) {
      const v = view(s);
      // What the customer has said so far: the words a text policy reads, on both desks.
      const words = customerText(s.task);
      const said = s.clarified ? `${words.opening} ${words.clarification}` : words.opening;
      return { features: text ? featurizeText(v, said) : featurize(v), key: stateKey(v), text: said };
    },
    describe: (s) => ticketText(s.task, { clarified: s.clarified, context: s.context, article: s.article, answered: s.answered, updated: s.updated, toolFailed: s.toolFailed, step: s.step, maxSteps }),
    step,
    outcomeReached,
    judgeProtected: (task, s) => judgeDeskProtected(asDeskTask(task), s.counts, s.ticket),
    async verifyOutcome(envTask, target, destination: Destination<TicketRecord>): Promise<OutcomeVerification> {
      const expectedFields = expectedTicket(asDeskTask(envTask));
      const expected = expectedAsRecord(expectedFields);
      let ticket: TicketRecord | null;
      try {
        ticket = await destination.read(target);
      } catch (e) {
        return { verdict: "unverifiable", target, expected, observed: null, mismatches: [], reason: `destination could not be read: ${(e as Error).message}` };
      }
      if (!ticket) return { verdict: "unverifiable", target, expected, observed: null, mismatches: [], reason: `ticket ${target} is not in the destination` };
      const mismatches = checkTicket(expectedFields, ticket);
      return { verdict: mismatches.length ? "not_verified" : "verified", target, expected, observed: { ...ticket }, mismatches, reason: null };
    },
  };
}
