import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { WsAdapter } from '@nestjs/platform-ws';
import { JsonLogger } from '#runtime';
import { ApiModule } from './api.module.js';
import { AllExceptionsFilter } from './http/all-exceptions.filter.js';
import { ApiExpressAdapter } from './http/json-text.adapter.js';
import { mountApiDocs } from './http/api-docs.js';
import { mountWebAssets } from './dashboard/web-assets.js';
import { jsonBodyParser } from './http/json-body.parser.js';
import { RequestObserver } from './http/request-observer.js';
import { ApiValidationPipe } from './http/api-validation.pipe.js';
import { streamMessageParser } from './streams/stream-message.parser.js';

/** The api exactly as production runs it; `main.ts`, `npm start`, the e2e tests and the benchmark all call this. */
export async function createApiApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule, new ApiExpressAdapter(), { bufferLogs: true, bodyParser: false });
  const logger = app.get(JsonLogger);
  app.useLogger(logger);
  // Naming the server's stack helps only those probing it.
  app.disable('x-powered-by');
  app.use(app.get(RequestObserver).middleware);
  app.use(jsonBodyParser({ limit: '100kb' }));
  app.useGlobalFilters(new AllExceptionsFilter(logger));
  app.useGlobalPipes(new ApiValidationPipe());
  app.useWebSocketAdapter(new WsAdapter(app, { messageParser: streamMessageParser }));
  mountApiDocs(app);
  mountWebAssets(app);
  return app;
}
