import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Response } from 'supertest';

// ajv-formats is CommonJS with the function as its default export.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationDoc>>;
  components: { schemas: Record<string, object> };
}

interface OperationDoc {
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: { enum?: unknown[] } }>;
  requestBody?: { content: Record<string, { schema?: object }> };
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

/** The fields of an OpenAPI document that are not JSON Schema keywords: annotations a validator passes over. */
const OPENAPI_WORDS = ['openapi', 'info', 'paths', 'components', 'tags', 'servers', 'security', 'example'];

/** One operation of the document: `GET /api/external/segments`. */
export const operationsOf = (document: OpenApiDocument): string[] =>
  Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );

/** A JSON pointer segment. */
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Every object schema with named properties closed to others, so an answer carrying a field the document
 * does not describe fails too ("exactly", not "at least"). A copy: the served document is not changed.
 */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (typeof node !== 'object' || node === null) return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closed(value)]));
  if (copy.type === 'object' && copy.properties !== undefined && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/**
 * Checks answers against the document as served, with ajv 8 in strict mode (unknown keywords, formats and
 * ignored schema words are errors, not passes) and the formats of ajv-formats. Each schema is reached by
 * its JSON pointer in the document, so references resolve exactly as a client's would.
 */
export class AnswerValidator {
  private readonly ajv = new Ajv({ strict: true, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addVocabulary(OPENAPI_WORDS);
    this.ajv.addSchema(closed(document) as object, 'openapi.json');
  }

  /** What is wrong with `body` as the request body of `operation`, by the schema its documentation gives. */
  requestProblems(operation: string, body: unknown): string[] {
    const [method, path] = operation.split(' ') as [string, string];
    const documented = this.document.paths[path]?.[method.toLowerCase()]?.requestBody?.content['application/json']?.schema;
    if (documented === undefined) return [`${operation} was sent a body it does not document`];
    const validate = this.validator(
      `openapi.json#/paths/${pointer(path)}/${method.toLowerCase()}/requestBody/content/application~1json/schema`,
    );
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${operation} request: ${e.instancePath || '(body)'} ${e.message}`);
  }

  /** What is wrong with `res` as the answer of `operation` (`GET /path/{slot}`); empty when it is as documented. */
  problems(operation: string, res: Response): string[] {
    const [method, path] = operation.split(' ') as [string, string];
    const where = `${operation} answered ${res.status}`;
    const documented = this.document.paths[path]?.[method.toLowerCase()]?.responses[String(res.status)];
    if (documented === undefined) return [`${where}, a status the document does not give: ${res.text.slice(0, 200)}`];
    const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
    const content = documented.content;
    if (content === undefined || Object.keys(content).length === 0) {
      // A file behind a link, a redirect or no content: the document promises no body shape.
      if (res.status === 204 && res.text !== '') return [`${where} with a body: ${res.text.slice(0, 200)}`];
      return [];
    }
    const media = content[type];
    if (media?.schema === undefined)
      return [`${where} with ${type || 'no content type'}, documented as ${Object.keys(content).join(', ')}`];
    const schemaPath = `openapi.json#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${res.status}/content/${pointer(type)}/schema`;
    const validate = this.validator(schemaPath);
    const body: unknown = type === 'application/json' ? res.body : res.text;
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) =>
        `${where}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)} (${e.schemaPath.replace(/^openapi\.json/, '')})`,
    );
  }

  private validator(schemaPath: string): ValidateFunction {
    let validate = this.compiled.get(schemaPath);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: schemaPath });
      this.compiled.set(schemaPath, validate);
    }
    return validate;
  }
}
