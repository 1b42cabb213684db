import 'reflect-metadata';
import { closeOnSignals, JsonLogger, prepareStartup } from '#runtime';
import { createDispatcherApp } from './dispatcher.bootstrap.js';

const config = await prepareStartup('dispatcher');
const app = await createDispatcherApp();
const logger = app.get(JsonLogger);
logger.write('info', 'dispatcher started');
closeOnSignals({ dispatcher: app }, logger, config.SHUTDOWN_TIMEOUT_MS);
