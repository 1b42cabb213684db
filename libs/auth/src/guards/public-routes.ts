import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC } from './public.decorator.js';

/** Whether a route is @Public(), read from its metadata once per handler rather than on every request. */
@Injectable()
export class PublicRoutes {
  private readonly known = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let isPublic = this.known.get(handler);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, context.getClass()]) === true;
      this.known.set(handler, isPublic);
    }
    return isPublic;
  }
}
