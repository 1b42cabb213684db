import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata, UseInterceptors } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { ReadVersionsRepository, type ReadDomain } from '#database';
import { NextTurnRead } from './next-turn-read.js';
import { ReadCache } from './read-cache.js';

const OPTIONS = 'tidewatch:read-cache';

export interface CachedReadOptions {
  /** The kinds of data the route's statements read: its answers are kept until one of them changes. */
  reads: readonly ReadDomain[];
  /** The route also reads the time of day (a default window ending now, a rule on how old a time may be). */
  wallClock?: boolean;
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
    const { reads, wallClock } = this.reflector.get<CachedReadOptions>(OPTIONS, context.getHandler());
    return from(
      this.versions.get().then((versions) => {
        const key = reads.map((domain) => `${domain}:${versions.get(domain) ?? 0}`).join(',');
        // An answer that depends on the wall clock is reused within its second only.
        const second = wallClock === true ? Math.floor(Date.now() / 1000) : '';
        return this.cache.answer(`${key}|${second}|${originalUrl}`, () => lastValueFrom(next.handle()));
      }),
    );
  }
}

/**
 * Marks a read route whose answer depends only on its path, its query and the stored data (never on the
 * consumer): it is served from the read cache. `reads` must name every kind of data its statements read,
 * those of the services it calls included (a coin in the path is looked up in `facts` and `state`).
 */
export const CachedRead = (options: CachedReadOptions) =>
  applyDecorators(SetMetadata(OPTIONS, options), UseInterceptors(ReadCacheInterceptor));
