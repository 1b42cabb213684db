import { describe, expect, it } from '@jest/globals';
import type { OpenAPIObject } from '@nestjs/swagger';
import { admitNullWhereNullable } from './openapi-nullable.js';

const documentWith = (schemas: Record<string, object>, response?: object): OpenAPIObject =>
  ({
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: response ? { '/x': { get: { responses: { '200': { content: { 'application/json': { schema: response } } } } } } } : {},
    components: { schemas },
  }) as OpenAPIObject;

describe('admitNullWhereNullable', () => {
  it('turns a nullable reference, in allOf or bare, into anyOf the reference or null, keeping its description', () => {
    const document = admitNullWhereNullable(
      documentWith(
        {
          Pair: {
            type: 'object',
            properties: {
              a: { nullable: true, type: 'object', description: 'A', allOf: [{ $ref: '#/components/schemas/H' }] },
              b: { nullable: true, $ref: '#/components/schemas/H' },
              c: { allOf: [{ $ref: '#/components/schemas/H' }] },
            },
          },
        },
        { nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/Pair' }] },
      ),
    );
    const nullOnly = { type: 'object', nullable: true, enum: [null] };
    expect(document.components!.schemas!.Pair).toEqual({
      type: 'object',
      properties: {
        a: { description: 'A', anyOf: [{ $ref: '#/components/schemas/H' }, nullOnly] },
        b: { anyOf: [{ $ref: '#/components/schemas/H' }, nullOnly] },
        c: { allOf: [{ $ref: '#/components/schemas/H' }] },
      },
    });
    expect(
      (document.paths['/x']!.get!.responses['200'] as { content: Record<string, { schema: object }> }).content['application/json']!.schema,
    ).toEqual({ anyOf: [{ $ref: '#/components/schemas/Pair' }, nullOnly] });
  });

  it('adds null to a nullable enum once, and leaves other nullable schemas as they are', () => {
    const document = admitNullWhereNullable(
      documentWith({
        D: {
          type: 'object',
          properties: {
            reason: { type: 'string', nullable: true, enum: ['paused', 'usage'] },
            listed: { type: 'string', nullable: true, enum: ['a', null] },
            text: { type: 'string', nullable: true },
          },
        },
      }),
    );
    expect(document.components!.schemas!.D).toEqual({
      type: 'object',
      properties: {
        reason: { type: 'string', nullable: true, enum: ['paused', 'usage', null] },
        listed: { type: 'string', nullable: true, enum: ['a', null] },
        text: { type: 'string', nullable: true },
      },
    });
  });
});
