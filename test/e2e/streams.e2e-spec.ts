import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { TokenService } from '#auth';
import { nodeTime } from '#exchange';
import { address, NodeDataDir, wireFill, type WireFill } from '#testing';
import { createIngestorApp } from '../../apps/ingestor/src/ingestor.bootstrap.js';
import { ApiHarness, awaitFreshRateWindow } from '../support/api-harness.js';
import { claimsOf, tamper } from '../support/jwt.js';
import { fillPayload } from '../support/fill-payload.js';
import { StreamClient, type StreamFrame } from '../support/stream-client.js';

// `GET /ws` through the production api bootstrap, fed by a real ingestor tailing hl-node files: the close
// codes of docs/product.md, the protocol's answers, and each committed event as the frames a bot receives.

const IDLE_MS = 3_000;

describe('websocket streams: GET /ws', () => {
  let api: ApiHarness;
  let ingestor: INestApplicationContext;
  let dir: NodeDataDir;
  let url: string;
  let nextBlock = 7_000;
  let nextTid = 700_000;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await NodeDataDir.create();
    // A state source that answers nothing: these tests are about fills and ledger events.
    env = {
      EXCHANGE_SOURCE: 'node',
      HL_NODE_DATA_DIR: dir.root,
      HL_INFO_URL: 'http://127.0.0.1:9/info',
      WS_IDLE_TIMEOUT_MS: String(IDLE_MS),
    };
    api = await ApiHarness.start({ env });
    await api.app.listen(0, '127.0.0.1');
    url = `ws://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}/ws`;
    ingestor = await createIngestorApp();
  });

  afterAll(async () => {
    await ingestor?.close();
    await api?.close();
    await dir?.remove();
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  /** A connected tier4 client that has answered a ping, so it is admitted. */
  async function admitted(token?: string): Promise<StreamClient> {
    const client = StreamClient.connect(url, bearer(token ?? (await api.createConsumer()).token));
    await client.request({ method: 'ping' }, 'pong');
    return client;
  }

  async function write(stream: 'node_fills_by_block' | 'misc_events_by_block', events: unknown[], timeMs = Date.now()) {
    const blockNumber = nextBlock++;
    return { blockNumber, blockTime: await dir.appendBlock(stream, blockNumber, timeMs, events) };
  }

  const fill = (coin: string, px: string, sz: string, extra: Partial<WireFill> = {}): WireFill =>
    wireFill({ coin, px, sz, side: 'B', time: Date.now(), tid: nextTid++, ...extra });

  const dataOf = (frames: StreamFrame[]) => frames.map((f) => f.data as Record<string, unknown>);

  describe('admission', () => {
    it('closes a connection without credentials with 4401', async () => {
      expect(await StreamClient.connect(url).closed).toEqual({ code: 4401, reason: 'unauthorized' });
    });

    it('closes a connection with a tampered token with 4401', async () => {
      const { token } = await api.createConsumer();
      expect(await StreamClient.connect(url, bearer(tamper(token, { sub: '999999' }))).closed).toEqual({
        code: 4401,
        reason: 'unauthorized',
      });
    });

    it('closes a connection with a revoked token with 4401, and the same token worked before', async () => {
      const { token } = await api.createConsumer();
      (await admitted(token)).close();
      await api.app.get(TokenService).revoke(claimsOf(token).jti as string);
      expect(await StreamClient.connect(url, bearer(token)).closed).toEqual({ code: 4401, reason: 'unauthorized' });
    });

    it('closes a plan without websocket streams with 4403, and refuses it a ticket with 403', async () => {
      const { token } = await api.createConsumer({ plan: 'tier3' });
      expect(await StreamClient.connect(url, bearer(token)).closed).toEqual({ code: 4403, reason: 'plan has no websocket streams' });
      const res = await api.http.post('/api/external/ws/tickets').set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('The Tier 3 plan has no websocket streams; Tier 4 has them.');
    });

    it('admits a ticket once: the second connection with it is closed with 4401', async () => {
      const { token } = await api.createConsumer();
      const res = await api.http.post('/api/external/ws/tickets').set(bearer(token));
      expect(res.status).toBe(201);
      const { ticket, expiresAt } = res.body.data as { ticket: string; expiresAt: string };
      expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(50_000);
      expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);

      const first = StreamClient.connect(`${url}?ticket=${ticket}`);
      expect((await first.request({ method: 'ping' }, 'pong')).channel).toBe('pong');
      expect(await StreamClient.connect(`${url}?ticket=${ticket}`).closed).toEqual({ code: 4401, reason: 'unauthorized' });
      expect(await StreamClient.connect(`${url}?ticket=${'x'.repeat(43)}`).closed).toEqual({ code: 4401, reason: 'unauthorized' });
      first.close();
    });

    it("closes the connection past the plan's cap (10 on Tier 4) with 4429, and admits one again once a place is free", async () => {
      const { token } = await api.createConsumer();
      const open = await Promise.all(Array.from({ length: 10 }, () => admitted(token)));
      expect(await StreamClient.connect(url, bearer(token)).closed).toEqual({ code: 4429, reason: 'connection limit of the plan reached' });
      open[0]!.close();
      await open[0]!.closed;
      // The place is given back when the server sees the close, a moment after the client's.
      let again: StreamClient | undefined;
      for (let attempt = 0; attempt < 20 && !again; attempt++) {
        const client = StreamClient.connect(url, bearer(token));
        const outcome = await Promise.race([
          client.request({ method: 'ping' }, 'pong').then(() => 'pong'),
          client.closed.then(() => 'closed'),
        ]);
        if (outcome === 'pong') again = client;
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(again).toBeDefined();
      for (const client of [...open.slice(1), again!]) client.close();
    });
  });

  describe('protocol', () => {
    it('answers ping with pong and the server time in epoch ms', async () => {
      const client = await admitted();
      const before = Date.now();
      const pong = await client.request({ method: 'ping' }, 'pong');
      expect(pong).toEqual({ channel: 'pong', data: { time: expect.any(Number) } });
      expect((pong.data as { time: number }).time).toBeGreaterThanOrEqual(before);
      expect((pong.data as { time: number }).time).toBeLessThanOrEqual(Date.now());
      client.close();
    });

    it('answers each bad message with an error frame naming the problem and keeps the connection', async () => {
      const client = await admitted();
      const cases: Array<[unknown, Record<string, unknown>]> = [
        ['{not json', { field: 'message', message: 'message is not valid JSON' }],
        [[1, 2], { field: 'message', message: 'message must be a JSON object with a "method"' }],
        [{ method: 'subscribe!' }, { field: 'method', message: 'method must be one of subscribe, unsubscribe, ping' }],
        [{ method: 'subscribe' }, { field: 'subscription', message: 'subscription must be an object with a "type"' }],
        [
          { method: 'subscribe', subscription: { type: 'trades' } },
          { field: 'subscription.type', message: 'type must be one of fills, liquidations, ledger' },
        ],
        [
          { method: 'subscribe', subscription: { type: 'fills', user: 'x' } },
          { field: 'subscription.user', message: 'unknown filter "user"' },
        ],
        [
          { method: 'subscribe', subscription: { type: 'fills', address: ['0x12'] } },
          { field: 'subscription.address', message: '"0x12" is not a 0x-prefixed 40-hex-digit address' },
        ],
        [
          { method: 'subscribe', subscription: { type: 'fills', address: Array.from({ length: 1001 }, (_, i) => address(i + 1)) } },
          { field: 'subscription.address', message: 'address takes at most 1000 values, got 1001' },
        ],
        [
          { method: 'subscribe', subscription: { type: 'fills', side: 'long' } },
          { field: 'subscription.side', message: 'side must be one of B, A' },
        ],
        [
          { method: 'subscribe', subscription: { type: 'ledger', coin: ['BTC'] } },
          { field: 'subscription.coin', message: 'ledger events have no coin' },
        ],
        [
          { method: 'subscribe', subscription: { type: 'fills', minNotionalUsd: '-5' } },
          { field: 'subscription.minNotionalUsd', message: 'minNotionalUsd must be a non-negative decimal' },
        ],
        [
          { method: 'unsubscribe', subId: 42 },
          { field: 'subId', message: 'subId 42 is not a subscription of this connection' },
        ],
      ];
      for (const [message, data] of cases) {
        expect(await client.request(message, 'error')).toEqual({ channel: 'error', data });
      }
      expect((await client.request({ method: 'ping' }, 'pong')).channel).toBe('pong');
      client.close();
    });

    it('acknowledges subscribe with a subId and the subscription as understood, and unsubscribe with the same subId', async () => {
      const client = await admitted();
      const wallet = '0x' + 'Ab'.repeat(20);
      const ack = await client.request(
        { method: 'subscribe', subscription: { type: 'fills', coin: 'BTC', address: [wallet], side: 'B', minNotionalUsd: 1000 } },
        'subscriptionResponse',
      );
      expect(ack).toEqual({
        channel: 'subscriptionResponse',
        data: {
          method: 'subscribe',
          subId: 1,
          subscription: { type: 'fills', coin: ['BTC'], address: [wallet.toLowerCase()], side: 'B', minNotionalUsd: '1000' },
        },
      });
      const second = await client.request({ method: 'subscribe', subscription: { type: 'ledger' } }, 'subscriptionResponse');
      expect((second.data as { subId: number }).subId).toBe(2);
      expect(await client.request({ method: 'unsubscribe', subId: 1 }, 'subscriptionResponse')).toEqual({
        channel: 'subscriptionResponse',
        data: { method: 'unsubscribe', subId: 1 },
      });
      client.close();
    });

    it("counts each message like a request: past the plan's rate limit a message gets an error frame, is not carried out, and REST is limited too", async () => {
      await awaitFreshRateWindow();
      const { token } = await api.createConsumer({ rateLimitPerMinute: 3 });
      const client = await admitted(token);
      await client.request({ method: 'ping' }, 'pong');
      await client.request({ method: 'subscribe', subscription: { type: 'ledger' } }, 'subscriptionResponse');
      const refused = await client.request({ method: 'subscribe', subscription: { type: 'fills' } }, 'error');
      const retryAfter = (refused.data as { retryAfter: number }).retryAfter;
      expect(refused).toEqual({
        channel: 'error',
        data: {
          error: 'rate_limit_exceeded',
          message: `Rate limit of 3 requests and messages per minute exceeded; retry after ${retryAfter} s.`,
          retryAfter,
        },
      });
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(client.frames.filter((f) => f.channel === 'subscriptionResponse')).toHaveLength(1);
      expect((await api.get('/api/external/usage', token)).status).toBe(429);
      client.close();
    });

    it('spends a usage token per message: with none left a message gets an error frame naming the reset', async () => {
      const { token } = await api.createConsumer({ usageLimit: 2 });
      const client = await admitted(token);
      await client.request({ method: 'ping' }, 'pong');
      const refused = await client.request({ method: 'ping' }, 'error');
      const reset = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1));
      expect(refused).toEqual({
        channel: 'error',
        data: {
          error: 'usage_limit_exceeded',
          message: `All 2 usage tokens of this month are spent; they reset at ${reset.toISOString()}.`,
          retryAfter: expect.any(Number),
        },
      });
      expect(client.frames.filter((f) => f.channel === 'pong')).toHaveLength(2);
      client.close();
    });

    it('closes a connection that sends nothing for WS_IDLE_TIMEOUT_MS with 4408', async () => {
      const client = await admitted();
      expect(await client.closed).toEqual({ code: 4408, reason: 'idle timeout' });
    });
  });

  describe('events, after the ingestor commits them', () => {
    /** Every frame of one subscription once the client has `count` of them and a ping has come back after them. */
    async function framesOf(client: StreamClient, subId: number, count: number): Promise<StreamFrame[]> {
      await client.waitFor(count, (f) => f.subId === subId);
      await client.request({ method: 'ping' }, 'pong');
      return client.frames.filter((f) => f.subId === subId);
    }

    async function subscribe(client: StreamClient, subscription: Record<string, unknown>): Promise<number> {
      const ack = await client.request({ method: 'subscribe', subscription }, 'subscriptionResponse');
      return (ack.data as { subId: number }).subId;
    }

    it('sends each fill to the subscriptions it passes, numbered per subscription without gaps, with the values REST serves', async () => {
      const { token } = await api.createConsumer();
      const client = await admitted(token);
      const victim = address(0x1d1);
      const liquidator = address(0x1d2);
      const btc = await subscribe(client, { type: 'fills', coin: ['BTC'] });
      const victimSells = await subscribe(client, { type: 'fills', address: [victim.toUpperCase().replace('0X', '0x')], side: 'A' });
      const large = await subscribe(client, { type: 'fills', minNotionalUsd: '10000' });

      const t = Date.now();
      const tid = nextTid++;
      const hash = `0x${'5e'.repeat(32)}`;
      const liquidation = { liquidatedUser: victim, markPx: '60990.1', method: 'market' };
      const sold = fill('BTC', '61000.5', '0.25', {
        side: 'A',
        tid,
        oid: 71,
        hash,
        time: t,
        startPosition: '0.25',
        dir: 'Close Long',
        closedPnl: '-250.125',
        fee: '7.625',
        liquidation,
      } as Partial<WireFill>);
      const bought = fill('BTC', '61000.5', '0.25', {
        side: 'B',
        tid,
        oid: 72,
        hash,
        time: t,
        startPosition: '-1.5',
        dir: 'Close Short',
        closedPnl: '12.5',
        crossed: false,
        liquidation,
      } as Partial<WireFill>);
      const eth = fill('ETH', '3000', '2', { time: t });
      const sol = fill('SOL', '150', '100', { side: 'A', time: t });
      const first = await write(
        'node_fills_by_block',
        [
          [victim, sold],
          [liquidator, bought],
          [address(0xe1), eth],
          [address(0xe2), sol],
        ],
        t,
      );
      const later = fill('BTC', '61010', '0.01', { time: t + 1 });
      const second = await write('node_fills_by_block', [[address(0xe3), later]], t + 1);

      const frame = (
        subId: number,
        seq: number,
        block: { blockNumber: number; blockTime: string },
        index: number,
        wallet: string,
        f: WireFill,
      ) => ({
        channel: 'fills',
        subId,
        seq,
        cursor: { block: block.blockNumber, index },
        eventId: `fill:${f.tid}:${wallet}`,
        data: { address: wallet, ...fillPayload(wallet, f, block) },
      });
      expect(await framesOf(client, btc, 3)).toEqual([
        frame(btc, 1, first, 0, victim, sold),
        frame(btc, 2, first, 1, liquidator, bought),
        frame(btc, 3, second, 0, address(0xe3), later),
      ]);
      expect(await framesOf(client, victimSells, 1)).toEqual([frame(victimSells, 1, first, 0, victim, sold)]);
      // 0.25 x 61000.5 = 15250.125 and 100 x 150 = 15000 pass; 2 x 3000 = 6000 and 0.01 x 61010 do not.
      expect(await framesOf(client, large, 3)).toEqual([
        frame(large, 1, first, 0, victim, sold),
        frame(large, 2, first, 1, liquidator, bought),
        frame(large, 3, first, 3, address(0xe2), sol),
      ]);

      const rest = await api.get(`/api/external/fills/liquidation?coin=BTC`, token);
      expect(rest.status).toBe(200);
      const streamed = dataOf(client.frames.filter((f) => f.subId === btc).slice(0, 2));
      expect(
        streamed.map((d) => ({
          address: d.address,
          coin: d.coin,
          px: Number(d.px),
          sz: Number(d.sz),
          side: d.side,
          time: new Date(d.time as number).toISOString(),
          tid: d.tid,
          oid: d.oid,
          hash: d.hash,
          startPosition: Number(d.startPosition),
          dir: d.dir,
          closedPnl: Number(d.closedPnl),
          crossed: d.crossed,
        })),
      ).toEqual(
        (rest.body.fills as Array<Record<string, unknown>>)
          .map((r) => ({
            address: r.address,
            coin: r.coin,
            px: r.px,
            sz: r.sz,
            side: r.side,
            time: r.time,
            tid: r.tid,
            oid: r.oid,
            hash: r.hash,
            startPosition: r.startPosition,
            dir: r.dir,
            closedPnl: r.closedPnl,
            crossed: r.crossed,
          }))
          .sort((a, b) => (a.oid as number) - (b.oid as number)),
      );
      client.close();
    });

    it('sends a liquidation as the liquidation alert groups it: the liquidated side, filtered by side and coin', async () => {
      const client = await admitted();
      const longs = await subscribe(client, { type: 'liquidations', side: 'long', coin: ['BTC', 'ETH'] });
      const shorts = await subscribe(client, { type: 'liquidations', side: 'short' });
      const victim = address(0x2d1);
      const t = Date.now();
      const hash = `0x${'6f'.repeat(32)}`;
      const liquidation = { liquidatedUser: victim, markPx: '2990', method: 'market' };
      const a = fill('ETH', '3000', '1.5', {
        side: 'A',
        hash,
        time: t,
        startPosition: '4',
        dir: 'Close Long',
        liquidation,
      } as Partial<WireFill>);
      const b = fill('ETH', '2999', '0.5', {
        side: 'A',
        hash,
        time: t,
        startPosition: '2.5',
        dir: 'Close Long',
        liquidation,
      } as Partial<WireFill>);
      const counterparty = fill('ETH', '3000', '1.5', { side: 'B', hash, time: t, tid: a.tid, liquidation } as Partial<WireFill>);
      const block = await write(
        'node_fills_by_block',
        [
          [address(0x2d2), counterparty],
          [victim, a],
          [victim, b],
        ],
        t,
      );

      expect(await framesOf(client, longs, 1)).toEqual([
        {
          channel: 'liquidations',
          subId: longs,
          seq: 1,
          cursor: { block: block.blockNumber, index: 1 },
          eventId: `liquidation:${hash}:${victim}:ETH`,
          data: {
            address: victim,
            market: 'ETH',
            side: 'long',
            size: '2',
            // 1.5 x 3000 + 0.5 x 2999 = 5999.5, over a size of 2
            usdNotional: '5999.5',
            executionPrice: '2999.75',
            fills: [
              { id: `${a.tid}:${victim}`, px: '3000', sz: '1.5', startPosition: '4' },
              { id: `${b.tid}:${victim}`, px: '2999', sz: '0.5', startPosition: '2.5' },
            ],
            sourceEventId: hash,
            eventTime: t,
          },
        },
      ]);
      expect(client.frames.filter((f) => f.subId === shorts)).toEqual([]);
      client.close();
    });

    it('sends deposits and withdrawals to the ledger subscriptions whose wallets and amounts they pass', async () => {
      const client = await admitted();
      const depositor = address(0x3d1);
      const all = await subscribe(client, { type: 'ledger' });
      const mine = await subscribe(client, { type: 'ledger', address: [depositor] });
      const big = await subscribe(client, { type: 'ledger', minNotionalUsd: '1000' });
      const t = Date.now();
      const depositHash = `0x${'7a'.repeat(32)}`;
      const withdrawHash = `0x${'7b'.repeat(32)}`;
      const block = await write(
        'misc_events_by_block',
        [
          {
            time: nodeTime(t, 0),
            hash: depositHash,
            inner: { LedgerUpdate: { users: [depositor], delta: { type: 'deposit', usdc: '2500.5' } } },
          },
          {
            time: nodeTime(t, 0),
            hash: withdrawHash,
            inner: { LedgerUpdate: { users: [address(0x3d2)], delta: { type: 'withdraw', usdc: '100.0', nonce: 5, fee: '1.0' } } },
          },
        ],
        t,
      );
      const deposit = (subId: number, seq: number) => ({
        channel: 'ledger',
        subId,
        seq,
        cursor: { block: block.blockNumber, index: 0 },
        eventId: `ledger:${depositHash}`,
        data: { hash: depositHash, type: 'deposit', amount: '2500.5', users: [depositor], time: t },
      });
      expect(await framesOf(client, all, 2)).toEqual([
        deposit(all, 1),
        {
          channel: 'ledger',
          subId: all,
          seq: 2,
          cursor: { block: block.blockNumber, index: 1 },
          eventId: `ledger:${withdrawHash}`,
          data: { hash: withdrawHash, type: 'withdraw', amount: '100.0', users: [address(0x3d2)], time: t },
        },
      ]);
      expect(client.frames.filter((f) => f.subId === mine)).toEqual([deposit(mine, 1)]);
      expect(client.frames.filter((f) => f.subId === big)).toEqual([deposit(big, 1)]);
      client.close();
    });

    it('stops sending to a subscription once it is unsubscribed', async () => {
      const client = await admitted();
      const kept = await subscribe(client, { type: 'fills', coin: ['DOGE'] });
      const dropped = await subscribe(client, { type: 'fills', coin: ['DOGE'] });
      await client.request({ method: 'unsubscribe', subId: dropped }, 'subscriptionResponse');
      await write('node_fills_by_block', [[address(0x4d1), fill('DOGE', '0.1', '1000')]]);
      expect((await framesOf(client, kept, 1)).map((f) => f.seq)).toEqual([1]);
      expect(client.frames.filter((f) => f.subId === dropped)).toEqual([]);
      client.close();
    });

    // Last: passport keeps one strategy per name for the whole Node process, so once a second app in this process
    // has registered its own and closed, token checks of the first would go through a closed app.
    it('sends the same frames through a second api process, which closes its connections with 1001 when it stops', async () => {
      const other = await ApiHarness.start({ reset: false, env });
      let stopped = false;
      try {
        await other.app.listen(0, '127.0.0.1');
        const { token } = await api.createConsumer();
        const here = await admitted(token);
        const there = StreamClient.connect(`ws://127.0.0.1:${(other.app.getHttpServer().address() as AddressInfo).port}/ws`, bearer(token));
        const [subHere, subThere] = [
          await subscribe(here, { type: 'fills', coin: 'AVAX' }),
          await subscribe(there, { type: 'fills', coin: 'AVAX' }),
        ];
        const avax = fill('AVAX', '35.5', '10');
        await write('node_fills_by_block', [[address(0x5d1), avax]]);
        const [fromHere] = await framesOf(here, subHere, 1);
        const [fromThere] = await framesOf(there, subThere, 1);
        expect(fromThere).toEqual(fromHere);
        expect(fromHere).toMatchObject({ seq: 1, eventId: `fill:${avax.tid}:${address(0x5d1)}`, data: { px: '35.5', sz: '10' } });
        await other.close();
        stopped = true;
        expect(await there.closed).toEqual({ code: 1001, reason: 'server shutting down' });
        here.close();
      } finally {
        if (!stopped) await other.close();
      }
    });
  });
});
