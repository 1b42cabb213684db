import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { ValidationFailedException } from './validation-failed.exception.js';

type DtoClass = new () => object;

/**
 * The global validation: unknown fields rejected, values converted to the DTO's types, 400 bodies
 * naming each field. Most requests carry no query at all; whether an empty query is valid for a
 * DTO is decided once (by the full validation) and remembered, so those requests skip
 * class-transformer and class-validator.
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  private readonly emptyQueryValid = new Map<DtoClass, boolean>();

  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      stopAtFirstError: true,
      exceptionFactory: (errors) => ValidationFailedException.fromValidationErrors(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dto = metadata.metatype as DtoClass | undefined;
    if (metadata.type !== 'query' || !dto || !isEmptyObject(value)) return super.transform(value, metadata);
    let valid = this.emptyQueryValid.get(dto);
    if (valid === undefined) {
      valid = await super.transform({}, metadata).then(
        () => true,
        () => false,
      );
      this.emptyQueryValid.set(dto, valid);
    }
    return valid ? new dto() : super.transform(value, metadata);
  }
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const _ in value) return false;
  return true;
}
