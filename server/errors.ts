// Errors the domain raises on purpose, with the HTTP-ish code the edge should answer and, for bad
// input, the field at fault. tRPC turns them into the matching TRPCError (server/trpc.ts).
export type DomainErrorCode = "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "PRECONDITION_FAILED";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const badInput = (field: string, message: string) => new DomainError("BAD_REQUEST", `${field}: ${message}`, field);
