// Errors the store raises on purpose. The HTTP layer maps them to 4xx with the reference's
// `{"detail": …}` shape; anything else is a bug and becomes a 500.

/** A referenced rollout, attempt or resources id does not exist (the reference answers 500; we answer 404). */
export class StoreNotFoundError extends Error {
  override name = "StoreNotFoundError";
}

/** The request is well-formed but not allowed in the current state, or names a bad field (400). */
export class StoreInputError extends Error {
  override name = "StoreInputError";
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The caller may not write this (gate work served by another identity, another agent's rollouts): 403. */
export class StoreForbiddenError extends Error {
  override name = "StoreForbiddenError";
}
