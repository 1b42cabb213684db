import 'reflect-metadata';
import { AnalyticsDataset } from '../analytics/analytics-dataset.js';
import { analyticsEndpoints } from '../analytics/analytics-endpoints.js';
import { loadSql, type SqlLoadRequest } from '../analytics/analytics-load.js';

// The heavy routes' own SQL, run from a process of its own on the api's core (startServer pins it to CPU 0),
// so the statements and the client's receiving of their rows have the same CPU as the api had.
process.on('message', (request: SqlLoadRequest) => {
  const endpoint = analyticsEndpoints(new AnalyticsDataset(request.settings), request.inputs, request.bigCoin).find(
    (e) => e.name === request.endpoint,
  );
  if (!endpoint?.sql) throw new Error(`no SQL for endpoint ${request.endpoint}`);
  loadSql(request.databaseUrl, endpoint.sql, request.options).then(
    (result) => process.send!(result),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
});
process.send?.('ready');
