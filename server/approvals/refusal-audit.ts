// Every refused decision — an approval, a rejection or a rollback, at begin or at finish, whatever the
// reason — leaves an audit row saying who asked, for what, and why it was refused. A refusal thrown inside
// the decision's transaction rolls that transaction back (with any row it wrote), so the record is written
// afterwards, in a transaction of its own holding the audit lock. If even that write fails the refusal
// still stands: the caller gets the original error, never a success.
import type { AuditActor } from "@/server/audit/audit-log";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import { isRefusalRecorded, markRefusalRecorded } from "@/server/audit/refusal-log";
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";

export type DecisionKind = "approval" | "rejection" | "rollback";

/** What a refused call was about; built from the caller's input, so every value is bounded text. */
export type RefusalContext = {
  kind: DecisionKind;
  /** begin: preparing the payload to sign; finish: the committing call (a rejection has only this one). */
  phase: "begin" | "finish";
  /** the audit action, e.g. "approval.canary.refused" */
  action: string;
  target: { type: string; id: string };
  /** what was asked, recorded beside the reason (e.g. step, pointer, nonce) */
  request?: Record<string, string | null>;
};

// Refusals whose audit row already committed in the decision's own transaction (refused at commit, with
// its ApprovalDecision row) are marked: the wrapper must not write a second one. A refusal the wrapper
// records is marked too, so the HTTP edge (server/audit/refusal-log.ts) does not count it again.
export { markRefusalRecorded };

/** Runs one decision step; when it throws, records the refusal (see above) and rethrows the same error. */
export async function withRefusalAudit<T>(database: Database, actor: AuditActor, context: RefusalContext | (() => RefusalContext), step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!isRefusalRecorded(error)) {
      await recordRefusal(database, actor, typeof context === "function" ? safeContext(context) : context, error);
      if (typeof error === "object" && error !== null) markRefusalRecorded(error);
    }
    throw error;
  }
}

/** Writes the refusal row in its own transaction; never throws (a failed record must not turn into anything else). */
export async function recordRefusal(database: Database, actor: AuditActor, context: RefusalContext, error: unknown): Promise<void> {
  const why =
    error instanceof DomainError
      ? { code: error.code, field: error.field ?? null, reason: bounded(error.message, 1000) }
      : { code: "INTERNAL", field: null, reason: bounded(`internal error: ${error instanceof Error ? error.message : String(error)}`, 1000) };
  try {
    await database.transaction(
      (tx) =>
        appendAudit(tx, {
          actor,
          action: context.action,
          target: context.target,
          after: { kind: context.kind, phase: context.phase, ...why, request: context.request ?? {} },
        }),
      { locks: [AUDIT_LOCK] },
    );
  } catch (auditError) {
    console.error(`audit: could not record a refused ${context.kind} (${context.action} ${context.target.type}:${context.target.id}):`, (auditError as Error)?.message ?? auditError);
  }
}

function safeContext(build: () => RefusalContext): RefusalContext {
  try {
    return build();
  } catch {
    return { kind: "approval", phase: "finish", action: "decision.refused", target: { type: "unknown", id: "unknown" } };
  }
}

/** A caller-given value as bounded text for the record ("(none)" when it is not a string). */
export function text(value: unknown, max = 200): string {
  return typeof value === "string" && value.length > 0 ? bounded(value, max) : "(none)";
}

function bounded(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A field of a caller-given object, without trusting its shape (it may be anything, even a primitive). */
export function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
