import type { INestApplication } from '@nestjs/common';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { admitNullWhereNullable } from './openapi-nullable.js';

const DOCS_PATH = 'docs';

/**
 * Swagger UI at `/docs` and the OpenAPI document at `/docs-json` (and `/docs-yaml`).
 *
 * SwaggerModule.setup registers nine express layers ahead of the api's routes, and express tries
 * each one's path on every request. Here they live on a router of their own behind one layer that
 * lets only `/docs…` paths in, so an api request pays a single prefix check.
 */
export function mountApiDocs(app: NestExpressApplication): void {
  const document = admitNullWhereNullable(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Tidewatch API')
        .setDescription(
          'Hyperliquid perpetuals analytics and server-side webhook alerts. Every route needs `Authorization: Bearer <token>`.',
        )
        .setVersion('1')
        .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
        .build(),
    ),
  );
  const router = express.Router();
  const adapter = new ExpressAdapter(router);
  // What SwaggerModule.setup uses of an application, pointed at the docs router. Should an upgrade
  // of @nestjs/swagger use more of it, start-up fails at once (and the e2e /docs tests with it).
  const docsApp = {
    getHttpAdapter: () => adapter,
    useStaticAssets: (path: string, options: object) => adapter.useStaticAssets(path, options),
  } as unknown as INestApplication;
  SwaggerModule.setup(DOCS_PATH, docsApp, document, { jsonDocumentUrl: `${DOCS_PATH}-json` });
  const prefix = `/${DOCS_PATH}`;
  app.use((req: Request, res: Response, next: NextFunction) => (req.url.startsWith(prefix) ? router(req, res, next) : next()));
}
