import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HyperliquidInfoClient, HyperliquidInfoError } from './info.client.js';

/** Each request takes the next scripted answer; a request past the script hangs (a server that never answers). */
type Answer = { status: number; body: string; headers?: Record<string, string> };

describe('HyperliquidInfoClient', () => {
  let server: Server;
  let url: string;
  let script: Answer[];
  let received: unknown[];
  const hanging: ServerResponse[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ method: req.method, contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString()) });
        const answer = script.shift();
        if (!answer) return void hanging.push(res);
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/info`;
  });
  beforeEach(() => {
    script = [];
    received = [];
  });
  afterAll(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // A generous timeout, so a busy machine never turns a slow answer into a retry; the timeout test sets its own.
  const client = (timeoutMs = 10_000) => new HyperliquidInfoClient(url, { retryBaseMs: 1, retryMaxMs: 5, maxAttempts: 3, timeoutMs });

  it('posts the request as JSON and retries 429 and 5xx answers until one succeeds', async () => {
    script = [
      { status: 429, body: 'slow down', headers: { 'retry-after': '0' } },
      { status: 502, body: 'bad gateway' },
      { status: 200, body: '[{"time":1,"coin":"BTC"}]' },
    ];
    await expect(client().userFunding('0xabc', 5)).resolves.toEqual([{ time: 1, coin: 'BTC' }]);
    expect(received).toEqual(
      Array(3).fill({ method: 'POST', contentType: 'application/json', body: { type: 'userFunding', user: '0xabc', startTime: 5 } }),
    );
  });

  it('gives up after the last attempt, naming the request, the status and the answer', async () => {
    script = Array(3).fill({ status: 500, body: 'internal error' });
    const error = await client()
      .request({ type: 'meta' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HyperliquidInfoError);
    expect(error).toMatchObject({
      requestType: 'meta',
      status: 500,
      attempts: 3,
      message: 'info meta: HTTP 500 internal error (gave up after 3 attempts)',
    });
    expect(received).toHaveLength(3);
  });

  it('does not retry other 4xx answers or a body that is not JSON', async () => {
    script = [{ status: 422, body: 'Failed to deserialize the JSON body into the target type' }];
    await expect(client().request({ type: 'nope' })).rejects.toMatchObject({
      status: 422,
      attempts: 1,
      message: 'info nope: HTTP 422 Failed to deserialize the JSON body into the target type',
    });
    script = [{ status: 200, body: '<html>' }];
    await expect(client().request({ type: 'meta' })).rejects.toMatchObject({
      status: 200,
      message: 'info meta: response is not JSON: <html>',
    });
    expect(received).toHaveLength(2);
  });

  it('times out a request that gets no answer, and retries it', async () => {
    script = [];
    await expect(client(200).request({ type: 'allMids' })).rejects.toMatchObject({
      status: null,
      attempts: 3,
      message: 'info allMids: no answer within 200 ms (gave up after 3 attempts)',
    });
    expect(received).toHaveLength(3);
  });

  it('stops at once when its signal aborts', async () => {
    const abort = new AbortController();
    const pending = client().request({ type: 'allMids' }, abort.signal);
    abort.abort(new Error('shutting down'));
    await expect(pending).rejects.toThrow('shutting down');
  });
});
