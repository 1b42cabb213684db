import 'reflect-metadata';
import { closeOnSignals, JsonLogger, prepareStartup } from '#runtime';
import { createIngestorApp } from './ingestor.bootstrap.js';

const config = await prepareStartup('ingestor');
const app = await createIngestorApp();
const logger = app.get(JsonLogger);
logger.write('info', 'ingestor started', { source: config.EXCHANGE_SOURCE });
closeOnSignals([app], logger);
