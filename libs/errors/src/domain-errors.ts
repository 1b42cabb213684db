/**
 * Errors a lib throws when the caller asked for something that cannot be done. Libs never throw HTTP
 * exceptions (the CLI uses them too): the api's exception filter maps these to 400, 403, 404 and 409, and the CLI
 * to exit codes.
 */
export abstract class DomainError extends Error {
  override get name(): string {
    return this.constructor.name;
  }
}

/** The request names a value that is not acceptable: a 400 naming `field`. */
export class InvalidInputError extends DomainError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The request names something that does not exist (or belongs to another consumer): a 404. */
export class NotFoundError extends DomainError {}

/** The request carries a credential that does not grant it (an expired or altered signed link): a 403. */
export class ForbiddenError extends DomainError {}

/** The request is valid but the thing it names is in a state that refuses it (an expired delivery retried): a 409. */
export class ConflictError extends DomainError {}

/**
 * The consumer's plan does not allow what the request would add (more exchange-wide rules, more tracked
 * addresses): a 403 naming the limit, the plan and its cap.
 */
export class PlanLimitError extends DomainError {
  constructor(
    readonly limit: string,
    readonly plan: string,
    readonly max: number,
    message: string,
  ) {
    super(message);
  }
}

/** The credentials given (an email and password) do not match an account: a 401 with this message. */
export class InvalidCredentialsError extends DomainError {}

/** Too many attempts at something guarded against guessing: a 429 with Retry-After. */
export class TooManyAttemptsError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}
