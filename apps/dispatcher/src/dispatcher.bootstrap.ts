import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { JsonLogger } from '#runtime';
import { DispatcherModule } from './dispatcher.module.js';

export async function createDispatcherApp(): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(DispatcherModule, { bufferLogs: true });
  app.useLogger(app.get(JsonLogger));
  await app.init();
  return app;
}
