import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eachDeliveredOnce, FaultStack, until } from '../support/fault-stack.js';

// Redis stopped for 30 s (killed: it comes back empty, as a Redis without persistence does) and started again,
// under the load of the Postgres-restart test. While it is away the api keeps answering reads, rate limits and
// usage tokens decided from each process's own counts (docs/decisions.md, "Servers away"); the ingestor keeps storing
// the feed, its deliveries stored but not enqueued; once Redis is back the reconciler enqueues what was missed.

const OUTAGE_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a Redis stopped for 30 s under load', () => {
  let stack: FaultStack;

  beforeAll(async () => {
    stack = await FaultStack.start();
  }, 180_000);

  afterAll(() => stack?.close(), 60_000);

  it('leaves the api answering and the ingestor storing, and loses or doubles no delivery', async () => {
    const sender = await stack.createConsumer('deliveries');
    const reader = await stack.createConsumer('reader', ['--rate-limit', '100000']);
    const latecomer = await stack.createConsumer('latecomer');
    await stack.subscribe(sender);
    const endpoints = stack.readLoop(reader.token, '/events/endpoints');
    const usage = stack.readLoop(reader.token, '/api/external/usage');
    stack.feed.start();
    const delivered = () => stack.count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'`);
    await until('deliveries under way', async () => (await delivered()) >= 400);

    await stack.redis.stop();
    const stoppedAt = Date.now();
    await sleep(2_000);
    // The latecomer's first request: the first of its usage period, with no counter in Redis to start from.
    const first = await stack.api('/events/endpoints', latecomer.token);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'success', data: [] });
    // The ingestor is not held by the enqueue after its commits: its checkpoints move on during the outage.
    const checkpoints = await stack.checkpoints();
    await until('the feed stored during the outage', async () => (await stack.checkpoints()) > checkpoints, OUTAGE_MS - 5_000);
    const pending = await stack.count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`);
    expect(pending).toBeGreaterThan(0);
    await sleep(stoppedAt + OUTAGE_MS - Date.now());
    const restartingAt = Date.now();
    await stack.redis.start();

    const deliveredAtRestart = await delivered();
    await until('deliveries sent again after the restart', async () => (await delivered()) > deliveredAtRestart + 300);
    await stack.feed.stop();
    await endpoints.stop();
    await usage.stop();

    // Every read during the outage was answered, and answered 200.
    for (const loop of [endpoints, usage]) {
      const during = loop.between(stoppedAt, restartingAt);
      expect(during.length).toBeGreaterThan(0);
      expect(during.filter((a) => a.status !== 200)).toEqual([]);
    }

    const { fillTids, depositHashes } = stack.feed;
    await until('every fill stored', async () => (await stack.count(`SELECT count(*) AS n FROM fills`)) === fillTids.length);
    await until(
      'every deposit stored',
      async () => (await stack.count(`SELECT count(*) AS n FROM ledger_updates`)) === depositHashes.length,
    );

    // The deliveries stored while Redis was away were enqueued by the reconciler: each delivered, received and charged once.
    const total = depositHashes.length;
    expect(await stack.settledDeliveries(total)).toEqual(eachDeliveredOnce(total));
    const usedBy = (consumerId: number) =>
      stack.count(`SELECT coalesce(sum(used), 0) AS n FROM usage WHERE consumer_id = $1`, [consumerId]);
    expect(await usedBy(sender.consumerId)).toBe(total + 2);
    // The latecomer's one request was counted, though Redis was away when it came.
    await until('the latecomer charged', async () => (await usedBy(latecomer.consumerId)) === 1, 10_000);
    expect(Object.values(stack.apps).map((app) => app.child.exitCode)).toEqual([null, null, null]);
  }, 600_000);
});
