import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  type Type,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { domainsOf, ReadVersionsRepository, tablesReadBy, type ReadDomain, type ReadTable } from '#database';
import { NextTurnRead } from './next-turn-read.js';
import { ReadCache } from './read-cache.js';

const ROUTE = 'tidewatch:read-cache';

/** What a cached route reads, derived once when its controller class is defined. */
export interface CachedReadRoute {
  /** The provider the handler calls. */
  readonly source: Type;
  /** The tables the queries classes it is built with declare (`@ReadsTables`). */
  readonly tables: ReadonlySet<ReadTable>;
  /** Their domains (READ_TABLES): the route's answers are kept until one of them changes. */
  readonly domains: readonly ReadDomain[];
  /** The route also reads the time of day (a default window ending now, a rule on how old a time may be). */
  readonly wallClock: boolean;
}

/**
 * Serves a route's answer from the read cache while the data it reads is unchanged. The key is the
 * versions of the kinds of data the route reads (taken before the route's own statements, so what it
 * renders is at least as new as them) and the request's path and query; a commit of any of their
 * writers changes it.
 * Guards (token, rate limit, usage) run before it, so a cached answer is charged like any other; the
 * validation pipe runs inside it, so only a valid request's answer is ever kept.
 */
@Injectable()
export class ReadCacheInterceptor implements NestInterceptor {
  /** The requests of one event-loop turn share a version read (sent after each of them arrived). */
  private readonly versions: NextTurnRead<Map<string, string>>;

  constructor(
    private readonly cache: ReadCache,
    versions: ReadVersionsRepository,
    dataSource: DataSource,
    private readonly reflector: Reflector,
  ) {
    this.versions = new NextTurnRead(() => versions.current(dataSource));
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.cache.enabled) return next.handle();
    const { originalUrl } = context.switchToHttp().getRequest<Request>();
    const { domains, wallClock } = this.reflector.get<CachedReadRoute>(ROUTE, context.getHandler());
    return from(
      this.versions.get().then((versions) => {
        const key = domains.map((domain) => `${domain}:${versions.get(domain) ?? 0}`).join(',');
        // An answer that depends on the wall clock is reused within its second only.
        const second = wallClock ? Math.floor(Date.now() / 1000) : '';
        return this.cache.answer(`${key}|${second}|${originalUrl}`, () => lastValueFrom(next.handle()));
      }),
    );
  }
}

/**
 * Marks a read route whose answer depends only on its path, its query and the stored data (never on the
 * consumer): it is served from the read cache. `source` is the read service the handler calls; the kinds
 * of data the route reads are derived from it, here, once: the tables its queries classes declare and
 * those of the services it is built with (a coin in the path is looked up by CoinsService, in `facts`
 * and `state`). test/e2e/read-cache-domains.e2e-spec.ts runs every cached route to check that its
 * statements read nothing else.
 */
export function CachedRead(source: Type, options: { wallClock?: boolean } = {}) {
  const tables = tablesReadBy(source);
  // Nothing declared behind it would key the route by no version at all: its answers would never change.
  if (tables.size === 0) throw new Error(`@CachedRead(${source.name}): no queries class it is built with declares @ReadsTables`);
  const route: CachedReadRoute = { source, tables, domains: domainsOf(tables), wallClock: options.wallClock === true };
  return applyDecorators(SetMetadata(ROUTE, route), UseInterceptors(ReadCacheInterceptor));
}

/** The cached-read declaration of a route handler; undefined for a route that is not cached. */
export const cachedReadOf = (handler: object): CachedReadRoute | undefined => Reflect.getMetadata(ROUTE, handler);
