import 'reflect-metadata';
import { FeedSource } from '#market';
import { closeOnSignals, JsonLogger, prepareStartup } from '#runtime';
import { createIngestorApp } from './ingestor.bootstrap.js';

const config = await prepareStartup('ingestor');
const app = await createIngestorApp();
const logger = app.get(JsonLogger);
logger.write('info', 'ingestor started', { source: app.get(FeedSource).name });
closeOnSignals({ ingestor: app }, logger, config.SHUTDOWN_TIMEOUT_MS);
