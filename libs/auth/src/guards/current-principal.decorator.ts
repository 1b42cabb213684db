import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Principal, PrincipalHolder, principalOf } from './principal.js';

/** The authenticated caller of the current request. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal =>
  principalOf(context.getArgByIndex<PrincipalHolder>(1))!,
);
