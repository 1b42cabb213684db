import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { cachedReadOf, type CachedReadRoute } from '../../apps/api/src/http/read-cache/read-cache.interceptor.js';

export interface CachedRoute extends CachedReadRoute {
  /** `Controller.handler`. */
  name: string;
  /** The path as OpenAPI writes it: `/api/external/{segmentId}/assets/liquidation-risk`. */
  path: string;
}

/** Every GET route of the app marked `@CachedRead`, found in its controllers' metadata (so none is left out). */
export function cachedRoutes(app: INestApplication): CachedRoute[] {
  const routes: CachedRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const key of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[key];
        if (typeof handler !== 'function') continue;
        const cached = cachedReadOf(handler);
        if (!cached) continue;
        const name = `${metatype.name}.${key}`;
        if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET)
          throw new Error(`${name}: a cached route that is not a GET`);
        const parts = [Reflect.getMetadata(PATH_METADATA, metatype), Reflect.getMetadata(PATH_METADATA, handler)] as string[];
        const path = `/${parts
          .flatMap((part) => part.split('/'))
          .filter((segment) => segment !== '')
          .join('/')}`;
        routes.push({ ...cached, name, path: path.replace(/:(\w+)/g, '{$1}') });
      }
    }
  }
  return routes;
}

interface ParameterDoc {
  name: string;
  in: string;
  required?: boolean;
  schema?: { enum?: unknown[] };
}

export const apiDocument = (app: INestApplication): OpenAPIObject => SwaggerModule.createDocument(app, new DocumentBuilder().build());

/**
 * The requests that run a route: one with only what it requires, one with every query field `samples`
 * has a value for as well (filters take other paths through the queries: a coin looked up, a cohort's
 * wallets). A parameter takes the sample of its name, else (when required) the first value its
 * documentation allows; a required one with neither is an error naming it.
 */
export function requestsOf(route: CachedRoute, document: OpenAPIObject, samples: Readonly<Record<string, string>>): string[] {
  const parameters = ((document.paths[route.path]?.get?.parameters ?? []) as ParameterDoc[]).filter((p) => 'in' in p);
  const value = (p: ParameterDoc): string => {
    const sample = samples[p.name] ?? p.schema?.enum?.[0];
    if (sample === undefined) throw new Error(`${route.name}: no sample value for its required ${p.in} parameter ${p.name}`);
    return String(sample);
  };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(value(parameters.find((p) => p.in === 'path' && p.name === name) ?? { name, in: 'path' })),
  );
  const query = parameters.filter((p) => p.in === 'query');
  const required = query.filter((p) => p.required === true).map((p): [string, string] => [p.name, value(p)]);
  const filters = query
    .filter((p) => p.required !== true && samples[p.name] !== undefined)
    .map((p): [string, string] => [p.name, samples[p.name]!]);
  const url = (pairs: Array<[string, string]>) => (pairs.length === 0 ? path : `${path}?${new URLSearchParams(pairs).toString()}`);
  return filters.length === 0 ? [url(required)] : [url(required), url([...required, ...filters])];
}
