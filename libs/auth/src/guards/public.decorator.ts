import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'tidewatch:public';

/** Serves the route without a bearer token, rate limit or usage accounting (health, metrics, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
