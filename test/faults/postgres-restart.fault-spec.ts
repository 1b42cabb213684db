import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eachDeliveredOnce, FaultStack, until } from '../support/fault-stack.js';

// Postgres restarted (`pg_ctl stop -m fast`, then start) under load: the api answering reads, the ingestor
// storing a live feed and matching every deposit to a delivery, the dispatcher sending them. Every process must
// reconnect on its own, and Postgres, the truth, must end with every fact once and every delivery sent and
// charged once.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a Postgres restarted under load', () => {
  let stack: FaultStack;

  beforeAll(async () => {
    stack = await FaultStack.start();
  }, 180_000);

  afterAll(() => stack?.close(), 60_000);

  it('is reconnected to by every process, and loses or doubles nothing', async () => {
    const sender = await stack.createConsumer('deliveries');
    const reader = await stack.createConsumer('reader', ['--rate-limit', '100000']);
    await stack.subscribe(sender);
    const reads = stack.readLoop(reader.token, '/events/endpoints');
    stack.feed.start();
    const delivered = () => stack.count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'`);
    await until('deliveries under way', async () => (await delivered()) >= 400);

    const stoppingAt = Date.now();
    await stack.postgres.stop();
    const stoppedAt = Date.now();
    await sleep(5_000); // the feed, the requests and the deliveries go on meanwhile
    await stack.postgres.start();
    const restartedAt = Date.now();

    await until('a 200 from the api after the restart', () => reads.between(restartedAt).some((a) => a.status === 200), 60_000);
    const checkpointsAfterRestart = await stack.checkpoints();
    const deliveredAfterRestart = await delivered();
    await until('the feed stored again after the restart', async () => (await stack.checkpoints()) > checkpointsAfterRestart);
    await until('deliveries sent again after the restart', async () => (await delivered()) > deliveredAfterRestart + 300);
    await stack.feed.stop();
    await reads.stop();

    // Every fill and deposit the feed wrote is stored, once.
    const { fillTids, depositHashes } = stack.feed;
    await until('every fill stored', async () => (await stack.count(`SELECT count(*) AS n FROM fills`)) === fillTids.length);
    await until(
      'every deposit stored',
      async () => (await stack.count(`SELECT count(*) AS n FROM ledger_updates`)) === depositHashes.length,
    );
    const fills = (await stack.db.query(`SELECT tid::bigint AS tid FROM fills ORDER BY tid`)).rows.map((r) => Number(r.tid));
    expect(fills).toEqual([...fillTids].sort((a, b) => a - b));
    const deposits = (await stack.db.query(`SELECT hash FROM ledger_updates ORDER BY hash`)).rows.map((r) => r.hash as string);
    expect(deposits).toEqual([...depositHashes].sort());

    // One delivery per deposit, each delivered once, received once and charged once.
    const total = depositHashes.length;
    expect(await stack.settledDeliveries(total)).toEqual(eachDeliveredOnce(total));
    // The sender's usage: its two management requests and one token per delivery.
    const used = await stack.count(`SELECT coalesce(sum(used), 0) AS n FROM usage WHERE consumer_id = $1`, [sender.consumerId]);
    expect(used).toBe(total + 2);

    // The api answered before the stop, answered while Postgres was away (a 503 saying so, or a 200 from what it
    // holds; not a hang, not a 500), and answered again after the restart; no process exited.
    expect(reads.between(0, stoppingAt).every((a) => a.status === 200)).toBe(true);
    const duringOutage = reads.between(stoppedAt, restartedAt);
    expect(duringOutage.length).toBeGreaterThan(0);
    expect(duringOutage.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    expect(duringOutage.some((a) => a.status === 503)).toBe(true);
    expect(reads.between(stoppingAt).filter((a) => a.status === 500)).toEqual([]);
    expect(reads.between(restartedAt).at(-1)!.status).toBe(200);
    expect(Object.values(stack.apps).map((app) => app.child.exitCode)).toEqual([null, null, null]);
  }, 600_000);
});
