import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { COHORTS } from '#market';

// (b) The framework's own ceiling: NestJS on express, same route and bytes, nothing else.
@Controller('api/external/segments')
class BareSegmentsController {
  @Get()
  list() {
    return COHORTS;
  }
}

@Module({ controllers: [BareSegmentsController] })
class BareModule {}

const app = await NestFactory.create<NestExpressApplication>(BareModule, { logger: false });
await app.listen(Number(process.env.PORT), '127.0.0.1');
process.send?.('ready');
