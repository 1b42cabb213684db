import { afterEach, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { HyperliquidWsClient, type WsClientOptions, type WsStateChange } from './ws.client.js';

// Pings often; a generous pong timeout so a busy machine never drops a healthy connection.
const FAST: WsClientOptions = { reconnectBaseMs: 10, reconnectMaxMs: 40, pingIntervalMs: 30, pongTimeoutMs: 2_000 };

async function waitUntil(what: string, check: () => boolean): Promise<void> {
  for (let tries = 0; tries < 250; tries++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

type Received = { method: string };

/** What a connection sent apart from pings. */
const sent = (connection: { received: unknown[] } | undefined): unknown[] =>
  (connection?.received ?? []).filter((m) => (m as Received).method !== 'ping');

/** A bare websocket server that records what each connection sent and answers pings unless told not to. */
async function startServer(answerPings = true) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const connections: Array<{ socket: WebSocket; received: unknown[] }> = [];
  wss.on('connection', (socket) => {
    const connection = { socket, received: [] as unknown[] };
    connections.push(connection);
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { method: string };
      connection.received.push(message);
      if (message.method === 'ping' && answerPings) socket.send(JSON.stringify({ channel: 'pong' }));
    });
  });
  return { wss, connections, url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}` };
}

describe('HyperliquidWsClient', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function connect(answerPings = true, options: WsClientOptions = {}) {
    const server = await startServer(answerPings);
    const states: WsStateChange[] = [];
    const messages: string[] = [];
    const client = new HyperliquidWsClient(
      server.url,
      { ...FAST, ...options },
      { onState: (s) => states.push(s), onMessage: (m) => messages.push(m) },
    );
    cleanups.push(async () => {
      await client.stop();
      for (const c of server.connections) c.socket.terminate();
      await new Promise((resolve) => server.wss.close(resolve));
    });
    return { server, client, states, messages };
  }

  it('subscribes on connecting, and after a drop reconnects and sends every subscription again', async () => {
    const { server, client, states, messages } = await connect();
    client.subscribe({ type: 'userFills', user: '0xabc' });
    client.subscribe({ user: '0xabc', type: 'userFills' }); // the same subscription written in another order
    client.subscribe({ type: 'userFundings', user: '0xabc' });
    client.start();
    await waitUntil('two subscriptions', () => sent(server.connections[0]).length === 2);
    server.connections[0]!.socket.send('{"channel":"trades","data":[]}');
    const frames = () => messages.filter((m) => m !== '{"channel":"pong"}');
    await waitUntil('the message', () => frames().length === 1);

    server.connections[0]!.socket.terminate();
    await waitUntil('a second connection with both subscriptions', () => sent(server.connections[1]).length === 2);
    const subscribes = [
      { method: 'subscribe', subscription: { type: 'userFills', user: '0xabc' } },
      { method: 'subscribe', subscription: { type: 'userFundings', user: '0xabc' } },
    ];
    expect(server.connections.map(sent)).toEqual([subscribes, subscribes]);
    expect(frames()).toEqual(['{"channel":"trades","data":[]}']);
    expect(states.map((s) => s.state)).toEqual(['connecting', 'open', 'reconnecting', 'connecting', 'open']);
    expect(states[2]).toMatchObject({ state: 'reconnecting', attempt: 1, reason: 'closed 1006' });
  });

  it('unsubscribes, and does not subscribe again after a reconnection', async () => {
    const { server, client } = await connect();
    client.subscribe({ type: 'userFills', user: '0xabc' });
    client.start();
    await waitUntil('the subscription', () => sent(server.connections[0]).length === 1);
    client.unsubscribe({ type: 'userFills', user: '0xabc' });
    await waitUntil('the unsubscription', () => sent(server.connections[0]).length === 2);
    expect(sent(server.connections[0])[1]).toEqual({ method: 'unsubscribe', subscription: { type: 'userFills', user: '0xabc' } });
    server.connections[0]!.socket.terminate();
    await waitUntil('a second connection', () => client.isOpen && server.connections.length === 2);
    client.subscribe({ type: 'userFundings', user: '0xabc' });
    await waitUntil('the new subscription', () => sent(server.connections[1]).length > 0);
    expect(sent(server.connections[1])).toEqual([{ method: 'subscribe', subscription: { type: 'userFundings', user: '0xabc' } }]);
  });

  it('keeps a connection whose pings are answered, and drops and replaces one whose pings are not', async () => {
    const answered = await connect(true);
    answered.client.start();
    await waitUntil('several pings', () => (answered.server.connections[0]?.received.length ?? 0) >= 4);
    expect(answered.server.connections).toHaveLength(1);
    expect(answered.server.connections[0]!.received.slice(0, 4)).toEqual(Array(4).fill({ method: 'ping' }));

    const silent = await connect(false, { pongTimeoutMs: 30 });
    silent.client.start();
    await waitUntil('a second connection', () => silent.server.connections.length === 2);
    expect(silent.states.find((s) => s.state === 'reconnecting')).toMatchObject({ attempt: 1, reason: 'no answer to ping within 30 ms' });
  });

  it('backs off more after each failure in a row, up to the cap, and stops for good', async () => {
    const { server, client, states } = await connect();
    await new Promise((resolve) => server.wss.close(resolve)); // nothing listens: every attempt fails
    client.start();
    await waitUntil('five failures', () => states.filter((s) => s.state === 'reconnecting').length >= 5);
    await client.stop();
    const delays = states.filter((s) => s.state === 'reconnecting').map((s) => s.delayMs!);
    // 10, 20, 40, 40, ... ms with ±20 % jitter, never above the cap.
    expect(delays[0]).toBeGreaterThanOrEqual(8);
    expect(delays[0]).toBeLessThanOrEqual(12);
    expect(delays[1]).toBeGreaterThanOrEqual(16);
    expect(delays[1]).toBeLessThanOrEqual(24);
    for (const delay of delays.slice(2)) expect(delay).toBeGreaterThanOrEqual(32);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(40);
    expect(states.at(-1)!.state).toBe('stopped');
    const count = states.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(states).toHaveLength(count);
  });
});
