/**
 * Errors a lib throws when the caller asked for something that cannot be done. Libs never throw HTTP
 * exceptions (the CLI uses them too): the api's exception filter maps these to 400 and 404, and the CLI
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
