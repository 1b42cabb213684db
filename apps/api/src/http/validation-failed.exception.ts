import { BadRequestException, ValidationError } from '@nestjs/common';

export interface FieldError {
  field: string;
  message: string;
}

const summary = (errors: FieldError[]): string => `Invalid parameters: ${[...new Set(errors.map((e) => e.field))].join(', ')}`;

/** The body of a 400 that names each bad field; a lib's InvalidInputError gets the same. */
export const fieldErrorsBody = (errors: FieldError[]) => ({ status: 'error', message: summary(errors), errors });

/** A 400 that names each bad field: `{status: "error", message, errors: [{field, message}]}`. */
export class ValidationFailedException extends BadRequestException {
  constructor(readonly errors: FieldError[]) {
    super(summary(errors));
  }

  static fromValidationErrors(errors: ValidationError[]): ValidationFailedException {
    return new ValidationFailedException(flatten(errors, ''));
  }
}

function flatten(errors: ValidationError[], parent: string): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
