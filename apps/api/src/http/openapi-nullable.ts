import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

/**
 * The only schema OpenAPI 3.0 has for null alone: `nullable` adds null to the types of `type`, and `enum`
 * then holds only null.
 */
const NULL_ONLY: Schema = { type: 'object', nullable: true, enum: [null] };

/**
 * Makes every nullable schema of the document admit null under a strict JSON Schema validator.
 *
 * @nestjs/swagger writes a nullable reference to another DTO as `{nullable: true, type: 'object',
 * allOf: [{$ref}]}`. OpenAPI 3.0 (3.0.3 spells it out) lets `nullable` widen only the `type` beside it,
 * so the `allOf` still demands the referenced object and null is refused: a validator, or a client
 * generated from the document, rejects the answers that carry null there. Such a schema becomes
 * `{anyOf: [{$ref}, NULL_ONLY]}`. And a nullable `enum` admits null only when it lists null, so null is
 * added to it. Rewritten in place, once, when the document is built.
 */
export function admitNullWhereNullable(document: OpenAPIObject): OpenAPIObject {
  visit(document.components?.schemas);
  visit(document.paths);
  return document;
}

function visit(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Schema;
  if (schema.nullable === true) rewrite(schema);
  for (const value of Object.values(schema)) visit(value);
}

function rewrite(schema: Schema): void {
  const allOf = schema.allOf as Schema[] | undefined;
  const reference = typeof schema.$ref === 'string' ? { $ref: schema.$ref } : allOf?.length === 1 ? allOf[0] : undefined;
  if (reference !== undefined) {
    for (const key of ['nullable', 'type', 'allOf', '$ref']) delete schema[key];
    schema.anyOf = [reference, { ...NULL_ONLY, enum: [null] }];
    return;
  }
  const values = schema.enum as unknown[] | undefined;
  if (values !== undefined && !values.includes(null)) values.push(null);
}
