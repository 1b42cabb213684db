import 'reflect-metadata';
import { closeOnSignals, JsonLogger, prepareStartup } from '#runtime';
import { createApiApp } from './api.bootstrap.js';

const config = await prepareStartup('api');
const app = await createApiApp();
await app.listen(config.PORT);
const logger = app.get(JsonLogger);
logger.write('info', 'api listening', { url: `http://localhost:${config.PORT}`, docs: `http://localhost:${config.PORT}/docs` });
closeOnSignals({ api: app }, logger, config.SHUTDOWN_TIMEOUT_MS);
