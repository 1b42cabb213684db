import 'reflect-metadata';
import { createApiApp } from '../../apps/api/src/api.bootstrap.js';

// (a) The whole api pipeline: JWT, rate limit, usage accounting, access log, metrics.
const app = await createApiApp();
await app.listen(Number(process.env.PORT), '127.0.0.1');
process.send?.('ready');
