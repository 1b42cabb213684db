import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The dashboard's built files (apps/web, `npm run build` writes dist/web). Four folders up from this
 * file is the repository when it runs from its TypeScript source (the tests), dist/ when compiled.
 */
function webRoot(): string {
  const up = fileURLToPath(new URL('../../../../', import.meta.url));
  return existsSync(`${up}package.json`) ? `${up}dist/web` : `${up}web`;
}

/**
 * Serves the dashboard at `/` and its hashed bundles under `/assets/`; every other path goes on to the
 * api, so the REST routes and `/docs` answer as before. Pages are routed in the browser (`/#/…`).
 */
export function mountWebAssets(app: NestExpressApplication): void {
  const files = express.static(webRoot(), { index: false, maxAge: '1y', immutable: true });
  const page = express.static(webRoot(), { index: 'index.html', cacheControl: false });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/') return page(req, res, next);
    if (req.path.startsWith('/assets/')) return files(req, res, next);
    next();
  });
}
