// How the gate API answers: JSON, never cached; a refusal is `{error, field?, message}` — a code, the dotted
// path of the field at fault (as the request spells it), and one sentence that names it.
import { DomainError, type DomainErrorCode } from "@/server/errors";

export type Refusal = { error: string; field?: string; message: string };

/** A refusal of the HTTP edge itself (path, method, content type, credentials), with the status it answers. */
export class GateApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "GateApiError";
  }
}

/** 400 naming `field`: the message reads `<field>: <what is wrong>`. A DomainError, so tRPC maps it too. */
export const badField = (field: string, problem: string) => new DomainError("BAD_REQUEST", `${field}: ${problem}`, field);

const DOMAIN_STATUS: Record<DomainErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
};

export function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

/**
 * The answer for a refusal the domain raised (GateApiError, DomainError); `fields` renames a domain field
 * to the request's own spelling (`resource` → `resources_id`). Null for anything else (a real failure).
 */
export function refusalAnswer(e: unknown, fields: ReadonlyMap<string, string> = new Map()): Response | null {
  if (e instanceof GateApiError) return answer(e.status, refusalBody(e.code, e.message, e.field));
  // A transaction that could not finish in time on a loaded database (Prisma P2028) wrote nothing: retryable.
  if ((e as { code?: unknown } | null)?.code === "P2028") return answer(503, refusalBody("busy", "the server is busy: the write did not finish in time and nothing was written; retry shortly", undefined), { "retry-after": "5" });
  if (e instanceof DomainError) {
    const field = e.field === undefined ? undefined : (fields.get(e.field) ?? e.field);
    const message = field !== undefined && !e.message.includes(field) ? `${field}: ${e.message}` : e.message;
    return answer(DOMAIN_STATUS[e.code], refusalBody(e.code.toLowerCase(), message, field));
  }
  return null;
}

function refusalBody(error: string, message: string, field: string | undefined): Refusal {
  return field === undefined ? { error, message } : { error, field, message };
}
