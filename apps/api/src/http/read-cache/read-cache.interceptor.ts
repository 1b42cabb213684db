import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata, UseInterceptors } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { ReadVersionsRepository } from '#database';
import { ReadCache } from './read-cache.js';

const WALL_CLOCK = 'tidewatch:read-cache-wall-clock';

/**
 * Serves a route's answer from the read cache while the data is unchanged. The key is the versions of
 * every kind of stored data (read before the route's own statements, so what the route renders is at
 * least as new as them) and the request's path and query; any writer's commit changes the versions.
 * Guards (token, rate limit, usage) run before it, so a cached answer is charged like any other; the
 * validation pipe runs inside it, so only a valid request's answer is ever kept.
 */
@Injectable()
export class ReadCacheInterceptor implements NestInterceptor {
  constructor(
    private readonly cache: ReadCache,
    private readonly versions: ReadVersionsRepository,
    private readonly dataSource: DataSource,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.cache.enabled) return next.handle();
    const { originalUrl } = context.switchToHttp().getRequest<Request>();
    const wallClock = this.reflector.get<boolean | undefined>(WALL_CLOCK, context.getHandler()) === true;
    return from(
      this.versions.current(this.dataSource).then((versions) => {
        // An answer that depends on the wall clock (a default window ending now, the 30-day rule) is reused within its second only.
        const second = wallClock ? Math.floor(Date.now() / 1000) : '';
        return this.cache.answer(`${versions}|${second}|${originalUrl}`, () => lastValueFrom(next.handle()));
      }),
    );
  }
}

/**
 * Marks a read route whose answer depends only on its path, its query and the stored data (never on the
 * consumer): it is served from the read cache. `wallClock` for a route that also reads the time of day.
 */
export const CachedRead = (options: { wallClock?: boolean } = {}) =>
  applyDecorators(SetMetadata(WALL_CLOCK, options.wallClock === true), UseInterceptors(ReadCacheInterceptor));
