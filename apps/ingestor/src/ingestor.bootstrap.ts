import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { JsonLogger } from '#runtime';
import { IngestorModule } from './ingestor.module.js';

export async function createIngestorApp(): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(IngestorModule, { bufferLogs: true });
  app.useLogger(app.get(JsonLogger));
  await app.init();
  return app;
}
