import { matchBatch, matchInputFromBlocks, RuleIndex, type AlertRule, type EventType, type RuleFilters } from '#alerts';
import { parseBlockLine, type NodeBlock } from '#exchange';
import { median, progress } from '../support.js';

/**
 * `npm run bench -- alerts-matcher`: the alert matcher's events per second in one process with 10,000
 * rules (address rules tracking 1 to 1,000 wallets each, plus exchange-wide liquidation, ledger,
 * large-order and price rules), over blocks of real hl-node format parsed beforehand. The fills come
 * from 2,000,000 wallets, of which the first 200,000 are the pool rules track (so about one fill in
 * ten is a tracked wallet's). Reported: the median and the best of 7 passes (on a shared machine the
 * best is the least disturbed), and the deliveries they make.
 */
const PASSES = 7;
const RULES = 10_000;
const EVENTS = Number(process.env.BENCH_MATCHER_EVENTS ?? 500_000);
const FILLS_PER_BLOCK = 100;
const TRACKED_POOL = 200_000;
const WALLETS = 2_000_000;
const TARGET = 200_000;
const MARKETS = ['BTC', 'ETH', 'SOL', 'HYPE', 'xyz:TSLA', 'DOGE', 'ARB', 'kPEPE'];
const T0 = Date.UTC(2026, 10, 25);

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

function rules(rnd: () => number): AlertRule[] {
  const out: AlertRule[] = [];
  const add = (eventType: EventType, addresses: string[], filters: RuleFilters) =>
    out.push({
      id: out.length + 1,
      consumerId: 1 + (out.length % 500),
      webhookEndpointId: 1 + (out.length % 700),
      eventType,
      addresses,
      filters,
      createdAtMs: T0 - 1,
    });
  for (let i = 0; i < RULES; i++) {
    const kind = i % 100;
    if (kind < 85 || kind >= 97) {
      // Most rules watch a few wallets, some watch up to 1,000.
      const n = 1 + Math.floor(rnd() ** 3 * 1000);
      const set = new Set<string>();
      while (set.size < n) set.add(address(Math.floor(rnd() * TRACKED_POOL)));
      // Round-tripped through JSON: flat strings, as the database driver hands rules' addresses to the
      // index (a template literal's result is a rope, slower to compare as a map key).
      add(
        kind < 80 || kind >= 97 ? 'position_activity' : 'twap_execution',
        JSON.parse(JSON.stringify([...set])) as string[],
        kind % 3 === 0 ? { coin: [MARKETS[kind % MARKETS.length]!] } : {},
      );
    } else if (kind < 90) add('liquidation', [], { side: 'both', thresholdUsd: String(1000 * (kind - 84)) });
    else if (kind < 93) add('ledger_update', [], { types: ['deposit'], amount: { gte: '100000' } });
    else if (kind < 95) add('large_market_order', [], { thresholdUsd: String(50_000 * (1 + (i % 20))), direction: 'both' });
    else add('price_crossing', [], { market: MARKETS[i % MARKETS.length]!, threshold: String(90 + (i % 20)), direction: 'both' });
  }
  return out;
}

function blocks(rnd: () => number): NodeBlock[] {
  const out: NodeBlock[] = [];
  let tid = 1;
  for (let b = 0; b < EVENTS / FILLS_PER_BLOCK; b++) {
    const time = T0 + b * 100;
    const stamp = new Date(time).toISOString().replace('Z', '000000');
    const events = [];
    for (let i = 0; i < FILLS_PER_BLOCK; i++) {
      const coin = MARKETS[Math.floor(rnd() * MARKETS.length)]!;
      const wallet = address(Math.floor(rnd() * WALLETS));
      const large = rnd() < 0.002;
      const liquidated = rnd() < 0.002;
      events.push([
        wallet,
        {
          coin,
          px: (100 + rnd() * 10).toFixed(2),
          sz: large ? '2000' : (rnd() * 20).toFixed(2),
          side: rnd() < 0.5 ? 'A' : 'B',
          time,
          startPosition: (rnd() * 40 - 20).toFixed(2),
          dir: 'Open Long',
          closedPnl: '0.0',
          hash: `0x${(b * FILLS_PER_BLOCK + (i >> 2)).toString(16).padStart(64, '0')}`,
          oid: tid,
          crossed: rnd() < 0.5,
          fee: '0.01',
          tid: tid++,
          feeToken: 'USDC',
          twapId: rnd() < 0.02 ? 1000 + (i % 7) : null,
          ...(liquidated ? { liquidation: { liquidatedUser: wallet, markPx: '100', method: 'market' } } : {}),
        },
      ]);
    }
    const parsed = parseBlockLine(
      'node_fills_by_block',
      JSON.stringify({ local_time: stamp, block_time: stamp, block_number: b + 1, events }),
      {},
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    out.push(parsed.value);
  }
  return out;
}

export async function alertsMatcherBenchmark() {
  const rnd = prng(11);
  progress(`building ${RULES} rules and ${EVENTS} fills`);
  const ruleList = rules(rnd);
  const index = new RuleIndex(ruleList);
  const input = blocks(rnd);
  const tracked = ruleList.reduce((n, r) => n + r.addresses.length, 0);
  const rates: number[] = [];
  let deliveries = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    const started = performance.now();
    // One batch per 10 blocks, as the feed hands them to the facts writer.
    let made = 0;
    for (let i = 0; i < input.length; i += 10) made += matchBatch(index, matchInputFromBlocks(input.slice(i, i + 10), new Map())).length;
    rates.push(EVENTS / ((performance.now() - started) / 1000));
    deliveries = made;
    progress(`pass ${pass + 1}: ${Math.round(rates[pass]!)} events/s`);
  }
  return {
    name: 'alerts-matcher',
    table: [
      { measure: `matcher events/s (median of ${PASSES} passes)`, value: Math.round(median(rates)), target: `>= ${TARGET}` },
      { measure: `matcher events/s (best pass)`, value: Math.round(Math.max(...rates)), target: '' },
      { measure: 'rules', value: RULES, target: '' },
      { measure: 'tracked addresses over all rules', value: tracked, target: '' },
      { measure: 'fills matched per pass', value: EVENTS, target: '' },
      { measure: 'deliveries made per pass', value: deliveries, target: '' },
    ],
  };
}
