import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { JsonLogger } from '../../../libs/runtime/src/index.js';
import { ApiModule } from './api.module.js';
import { AllExceptionsFilter } from './http/all-exceptions.filter.js';
import { RequestObserver } from './http/request-observer.js';
import { ApiValidationPipe } from './http/api-validation.pipe.js';

/** The api exactly as production runs it; `main.ts`, `npm start`, the e2e tests and the benchmark all call this. */
export async function createApiApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule, { bufferLogs: true });
  const logger = app.get(JsonLogger);
  app.useLogger(logger);
  app.use(app.get(RequestObserver).middleware);
  app.useGlobalFilters(new AllExceptionsFilter(logger));
  app.useGlobalPipes(new ApiValidationPipe());
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Tidewatch API')
      .setDescription('Hyperliquid perpetuals analytics and server-side webhook alerts. Every route needs `Authorization: Bearer <token>`.')
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
  return app;
}
