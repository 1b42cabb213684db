import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { FakeHyperliquidServer, fixtureFills, fixtureJson, openFactsDatabase, startedWriter, useTestEnvironment } from '#testing';
import type { AddressStateChange, ParseIssue } from '#exchange';
import { HyperliquidApiIngestion, type HyperliquidIngestionOptions } from './hyperliquid-api.ingestion.js';

const config = useTestEnvironment();

type Wire = Record<string, unknown>;

// ALICE is given the recorded info history (she is the sender of its spot transfer, BOB the receiver);
// CAROL gets the recorded websocket frames, whose fill names her as the liquidated user.
const ALICE = '0x2ba553d9f990a3b66b03b2dc0d030dfc1c061036';
const BOB = '0xaaa0c2769cb990f4f37db951a9e48de2385c2733';
const CAROL = '0x000000000000000000000000000000000000000b';
const OVERLAP_MS = 1_000;
const PAGES = { userFillsByTime: 200, userFunding: 500, userNonFundingLedgerUpdates: 2 };

const FIXTURE_FILLS = fixtureFills();
const LAST_FIXTURE_FILL_MS = Math.max(...FIXTURE_FILLS.map((fill) => fill['time'] as number));

/** Fills the fixture does not have: copies of its first fill with new trade ids, later than all of it. */
function laterFills(count: number, firstTid: number): Wire[] {
  return Array.from({ length: count }, (_, i) => ({
    ...FIXTURE_FILLS[0],
    tid: firstTid + i,
    time: LAST_FIXTURE_FILL_MS + 60_000 * (i + 1),
  }));
}

async function waitUntil(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Steps an ingestion in the background, as the runner does, keeping what each step reported. */
class Pump {
  readonly issues: ParseIssue[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(readonly ingestion: HyperliquidApiIngestion) {
    this.loop = (async () => {
      while (this.running) {
        const step = await ingestion.step(100, 20);
        this.issues.push(...step.issues);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.ingestion.close();
    await this.loop;
  }
}

describe('HyperliquidApiIngestion against a local fake of the public API', () => {
  let dataSource: DataSource;
  let server: FakeHyperliquidServer;
  let states: AddressStateChange[];
  const pumps: Pump[] = [];

  const count = async (sql: string, params: unknown[] = []): Promise<number> => Number((await dataSource.query(sql, params))[0].n);
  const fillCount = (address: string) => count(`SELECT count(*) AS n FROM fills WHERE address = $1`, [address]);
  const isLive = (pump: Pump, address: string) => pump.ingestion.stateOf(address) === 'live';

  async function startIngestion(addresses: string[]): Promise<Pump> {
    const ingestion = await startedWriter(dataSource, HyperliquidApiIngestion);
    const options: HyperliquidIngestionOptions = {
      infoUrl: server.infoUrl,
      wsUrl: server.wsUrl,
      addresses,
      backfillFromMs: 0,
      backfillOverlapMs: OVERLAP_MS,
      pageLimits: PAGES,
      info: { retryBaseMs: 5, timeoutMs: 5_000 },
      ws: { reconnectBaseMs: 10, reconnectMaxMs: 40, pingIntervalMs: 1_000, pongTimeoutMs: 10_000 },
      onStateChange: (change) => states.push(change),
    };
    await ingestion.open(options);
    const pump = new Pump(ingestion);
    pumps.push(pump);
    return pump;
  }

  async function checkpoint(stream: string): Promise<unknown> {
    const rows = await dataSource.query(`SELECT position FROM feed_checkpoints WHERE source = 'hyperliquid' AND stream = $1`, [stream]);
    return rows[0]?.position;
  }

  beforeAll(async () => {
    ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
  });
  beforeEach(async () => {
    await dataSource.query(`TRUNCATE fills, twap_statuses, ledger_updates, funding_payments, market_prices, feed_checkpoints`);
    server = await FakeHyperliquidServer.start(PAGES);
    states = [];
  });
  afterEach(async () => {
    for (const pump of pumps.splice(0)) await pump.stop();
    await server.close();
  });
  afterAll(async () => {
    await dataSource.destroy();
  });

  it('stores the fills, funding and ledger updates of the tracked addresses with the exact values received, and their cursors', async () => {
    server.loadFixtureHistory(ALICE);
    const pump = await startIngestion([ALICE, CAROL]);
    await waitUntil('both addresses live', () => isLive(pump, ALICE) && isLive(pump, CAROL));
    server.replayFixtureFrames(CAROL);
    await waitUntil('the fills', async () => (await fillCount(ALICE)) === 500 && (await fillCount(CAROL)) === 1);
    await waitUntil('the funding', async () => (await count(`SELECT count(*) AS n FROM funding_payments`)) === 14);

    // Every fixture fill, field for field (the fake serves fixture fill i with tid FIXTURE_TID_BASE + i).
    const rows = await dataSource.query(
      `SELECT tid::text, coin, px::text, sz::text, side, (extract(epoch FROM time) * 1000)::bigint::text AS time,
              start_position::text, dir, closed_pnl::text, hash, oid::text, crossed, fee::text, block_number::text
       FROM fills WHERE address = $1 ORDER BY tid`,
      [ALICE],
    );
    expect(rows).toEqual(
      FIXTURE_FILLS.map((f) => ({
        tid: String(f['tid']),
        coin: f['coin'],
        px: f['px'],
        sz: f['sz'],
        side: f['side'],
        time: String(f['time']),
        start_position: f['startPosition'],
        dir: f['dir'],
        closed_pnl: f['closedPnl'],
        hash: f['hash'],
        oid: String(f['oid']),
        crossed: f['crossed'],
        fee: f['fee'],
        block_number: String(f['time']), // the synthetic block number is the event time
      })),
    );
    expect(rows[0]).toMatchObject({
      coin: 'SUI',
      px: '1.3189',
      sz: '142.7',
      closed_pnl: '-0.25686',
      start_position: '4623.5',
      dir: 'Close Long',
    });

    // The recorded userEvents frame: a backstop liquidation fill of a TWAP with a builder fee, and a funding payment.
    const [carolFill] = await dataSource.query(
      `SELECT tid::text, coin, px::text, sz::text, fee::text, cloid, twap_id::text, builder_fee::text, liquidated_user,
              liquidation_mark_px::text, liquidation_method, is_liquidated_side, time
       FROM fills WHERE address = $1`,
      [CAROL],
    );
    expect(carolFill).toEqual({
      tid: '669583051366496',
      coin: 'BTC',
      px: '86006.0',
      sz: '0.07905',
      fee: '-0.067987',
      cloid: '0x000000000000000000065d2917ff6969',
      twap_id: '2288616',
      builder_fee: '0.0001',
      liquidated_user: CAROL,
      liquidation_mark_px: '86010.0',
      liquidation_method: 'backstop',
      is_liquidated_side: true,
      time: new Date(1791280942711),
    });

    const funding = await dataSource.query(
      `SELECT address, coin, usdc::text, szi::text, funding_rate::text, (extract(epoch FROM time) * 1000)::bigint::text AS time
       FROM funding_payments ORDER BY address COLLATE "C", coin COLLATE "C"`,
    );
    const recordedFunding = (fixtureJson('info_userFunding.json') as Array<{ time: number; delta: Record<string, string> }>)
      .map(({ time, delta }) => ({
        address: ALICE,
        coin: delta['coin'],
        usdc: delta['usdc'],
        szi: delta['szi'],
        funding_rate: delta['fundingRate'],
        time: String(time),
      }))
      .sort((a, b) => (a.coin! < b.coin! ? -1 : 1));
    expect(funding).toEqual([
      { address: CAROL, coin: 'BTC', usdc: '-0.601087', szi: '0.55919', funding_rate: '0.0000125', time: '1791280800037' },
      ...recordedFunding,
    ]);

    // Each ledger update once per wallet it touches: the spot transfer also reaches BOB.
    const ledger = await dataSource.query(`SELECT address, type, usdc::text, hash FROM ledger_updates ORDER BY time, address`);
    const recordedLedger = fixtureJson('info_userNonFundingLedgerUpdates.json') as Array<{ hash: string; delta: Wire }>;
    expect(ledger).toEqual(
      recordedLedger.flatMap(({ hash, delta }) => {
        const usdc = (delta['usdc'] as string | undefined) ?? null;
        const row = (address: string) => ({ address, type: delta['type'], usdc, hash });
        return delta['type'] === 'spotTransfer' ? [row(ALICE), row(BOB)] : [row(ALICE)];
      }),
    );

    const lastFunding = Math.max(...recordedFunding.map((f) => Number(f.time)));
    const lastLedger = Math.max(...recordedLedger.map((u) => (u as unknown as { time: number }).time));
    expect(await checkpoint('node_fills_by_block')).toEqual({
      lastBlock: null,
      cursors: { [ALICE]: LAST_FIXTURE_FILL_MS, [CAROL]: 1791280942711 },
    });
    expect(await checkpoint('misc_events_by_block')).toEqual({
      lastBlock: null,
      cursors: { [ALICE]: Math.max(lastFunding, lastLedger), [CAROL]: 1791280800037 },
    });
    expect(pump.issues).toEqual([]);
  });

  it('reconnects and resubscribes after a dropped connection, and recovers the fills sent meanwhile through the info backfill', async () => {
    server.snapshots = false; // so only the backfill can bring the missed fills back
    server.loadFixtureHistory(ALICE);
    const pump = await startIngestion([ALICE]);
    await waitUntil('the recorded fills', async () => isLive(pump, ALICE) && (await fillCount(ALICE)) === 500);
    const connectionsBefore = server.connections.length;
    const requestsBefore = server.infoRequests.length;

    server.dropConnections();
    const missed = laterFills(2, 7_000_001);
    server.addFills(ALICE, missed, { live: false }); // nobody is connected to receive them
    await waitUntil('the missed fills', async () => (await fillCount(ALICE)) === 502);
    await waitUntil('live again', () => isLive(pump, ALICE));

    expect(states.filter((s) => s.state === 'reconnecting')).toHaveLength(1);
    expect(server.connections).toHaveLength(connectionsBefore + 1);
    expect(server.connections.at(-1)!.subscriptions).toEqual(
      ['userEvents', 'userFills', 'userFundings', 'userNonFundingLedgerUpdates', 'userTwapHistory'].map((type) => ({ type, user: ALICE })),
    );
    const fillRequests = server.infoRequests.slice(requestsBefore).filter((r) => r['type'] === 'userFillsByTime');
    expect(fillRequests[0]).toEqual({
      type: 'userFillsByTime',
      user: ALICE,
      startTime: LAST_FIXTURE_FILL_MS - OVERLAP_MS,
      aggregateByTime: false,
    });
    const recovered = await dataSource.query(
      `SELECT tid::text, px::text, sz::text, time FROM fills WHERE tid = ANY($1::bigint[]) ORDER BY tid`,
      [missed.map((f) => f['tid'])],
    );
    expect(recovered).toEqual(
      missed.map((f) => ({ tid: String(f['tid']), px: f['px'], sz: f['sz'], time: new Date(f['time'] as number) })),
    );
  });

  it('stores once the fills that arrive several times: snapshot frame, info backfill and live frames on two channels', async () => {
    server.loadFixtureHistory(ALICE);
    const pump = await startIngestion([ALICE]);
    await waitUntil('the recorded fills', async () => isLive(pump, ALICE) && (await fillCount(ALICE)) === 500);

    const extra = laterFills(3, 8_000_001);
    server.addFills(ALICE, extra, { live: true }); // on userFills and on userEvents
    await waitUntil('the live fills', async () => (await fillCount(ALICE)) === 503);
    // A reconnection brings all of them again: in the userFills snapshot and in the backfill from the cursor.
    const connectionsBefore = server.connections.length;
    server.dropConnections();
    await waitUntil('a new connection, backfilled', () => server.connections.length === connectionsBefore + 1 && isLive(pump, ALICE));
    server.addFills(ALICE, extra, { live: true }); // and live once more

    const lateMarker = laterFills(1, 8_100_000).map((f) => ({ ...f, time: (f['time'] as number) + 600_000 }));
    server.addFills(ALICE, lateMarker, { live: true }); // once this is stored, everything sent before it was handled
    await waitUntil('the marker fill', async () => (await fillCount(ALICE)) === 504);

    expect(await count(`SELECT count(*) AS n FROM fills WHERE tid = ANY($1::bigint[])`, [extra.map((f) => f['tid'])])).toBe(3);
    expect(await count(`SELECT count(*) AS n FROM (SELECT tid, address FROM fills GROUP BY 1, 2 HAVING count(*) > 1) d`)).toBe(0);
  });

  it('reports a malformed frame and a malformed fill, skips them and keeps the connection', async () => {
    const pump = await startIngestion([ALICE]);
    await waitUntil('live', () => isLive(pump, ALICE));
    const [bad, good, after] = laterFills(3, 9_000_001);
    const connectionsBefore = server.connections.length;

    server.send(ALICE, 'userFills', '{"channel": "userFills", "data": {');
    server.send(ALICE, 'userFills', { channel: 'userFills', data: { user: ALICE, fills: [{ ...bad, px: 'abc' }, good] } });
    server.addFills(ALICE, [after!], { live: true });
    await waitUntil('the good fills', async () => (await fillCount(ALICE)) === 2);

    expect(await dataSource.query(`SELECT tid::text FROM fills ORDER BY tid`)).toEqual([
      { tid: String(good!['tid']) },
      { tid: String(after!['tid']) },
    ]);
    expect(pump.issues.map((issue) => ({ stream: issue.source.stream, path: issue.path, message: issue.message }))).toEqual([
      { stream: `ws ${ALICE}`, path: '', message: 'not JSON: "{\\"channel\\": \\"userFills\\", \\"data\\": {"' },
      { stream: `ws userFills ${ALICE}`, path: 'data.fills[0].px', message: 'expected a decimal string, got "abc"' },
    ]);
    expect(server.connections).toHaveLength(connectionsBefore);
    expect(pump.ingestion.stateOf(ALICE)).toBe('live');
  });

  it('a restarted ingestion backfills from the cursors it stored, and stores nothing twice', async () => {
    server.loadFixtureHistory(ALICE);
    const first = await startIngestion([ALICE]);
    await waitUntil(
      'the recorded history',
      async () => (await fillCount(ALICE)) === 500 && (await count(`SELECT count(*) AS n FROM ledger_updates`)) === 6,
    );
    await first.stop();
    const fillsCursor = ((await checkpoint('node_fills_by_block')) as { cursors: Record<string, number> }).cursors[ALICE]!;
    const miscCursor = ((await checkpoint('misc_events_by_block')) as { cursors: Record<string, number> }).cursors[ALICE]!;
    expect(fillsCursor).toBe(LAST_FIXTURE_FILL_MS);

    const whileStopped = laterFills(1, 9_500_001);
    server.addFills(ALICE, whileStopped, { live: false });
    server.infoRequests.splice(0);
    const second = await startIngestion([ALICE]);
    await waitUntil('the fill made while stopped', async () => isLive(second, ALICE) && (await fillCount(ALICE)) === 501);

    const firstOf = (type: string) => server.infoRequests.find((r) => r['type'] === type);
    expect(firstOf('userFillsByTime')).toMatchObject({ user: ALICE, startTime: fillsCursor - OVERLAP_MS });
    expect(firstOf('userFunding')).toMatchObject({ user: ALICE, startTime: miscCursor - OVERLAP_MS });
    expect(firstOf('userNonFundingLedgerUpdates')).toMatchObject({ user: ALICE, startTime: miscCursor - OVERLAP_MS });
    expect(await count(`SELECT count(*) AS n FROM fills`)).toBe(501);
    expect(await count(`SELECT count(*) AS n FROM funding_payments`)).toBe(13);
    expect(await count(`SELECT count(*) AS n FROM ledger_updates`)).toBe(6);
    expect(((await checkpoint('node_fills_by_block')) as { cursors: Record<string, number> }).cursors[ALICE]).toBe(
      whileStopped[0]!['time'],
    );
    expect([...first.issues, ...second.issues]).toEqual([]);
  });
});
