import 'reflect-metadata';
import { closeOnSignals, JsonLogger, prepareStartup } from '#runtime';
import { createApiApp } from '../../api/src/api.bootstrap.js';
import { createDispatcherApp } from '../../dispatcher/src/dispatcher.bootstrap.js';
import { createIngestorApp } from '../../ingestor/src/ingestor.bootstrap.js';

// `npm start`: migrations, then the three apps in one process (the single-machine default).
const config = await prepareStartup('tidewatch');
const ingestor = await createIngestorApp();
const dispatcher = await createDispatcherApp();
const api = await createApiApp();
await api.listen(config.PORT);
const logger = api.get(JsonLogger);
logger.write('info', 'tidewatch started: api, ingestor and dispatcher', {
  url: `http://localhost:${config.PORT}`,
  docs: `http://localhost:${config.PORT}/docs`,
  source: config.EXCHANGE_SOURCE,
});
closeOnSignals({ api, ingestor, dispatcher }, logger, config.SHUTDOWN_TIMEOUT_MS);
