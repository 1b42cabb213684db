import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { JsonText } from '#database';
import { SealedJsonText } from './read-cache/sealed-json-text.js';

/**
 * Nest's express adapter, sending a handler's JsonText (a body Postgres already rendered as JSON) as it
 * is, with the content type `res.json` would give (a read-cache answer as its bytes, with its entity
 * tag); every other body goes the usual way. It is the one place that knows the type, so any route,
 * guard, interceptor or filter may return one and nothing per route is needed (an interceptor would cost
 * every route a chain).
 */
export class ApiExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof JsonText)) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (!(body instanceof SealedJsonText)) return response.send(body.text);
    // express hashes a body for its ETag only when none is set.
    response.setHeader('ETag', body.etag);
    return response.send(body.bytes);
  }
}
