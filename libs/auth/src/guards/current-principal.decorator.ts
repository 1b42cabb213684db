import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AuthenticatedRequest, Principal } from './principal.js';

/** The authenticated caller of the current request. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);
