import { describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { createHash } from 'node:crypto';
import { pnlCohortFor, sizeCohortFor } from '#market';
import type { NodeFillEvent } from '../fills/fill.types.js';
import { parseBlockLine } from '../node/node-block.parser.js';
import type { NodeBlock } from '../node/node-block.types.js';
import { HyperliquidSimulator, simulate } from './simulator.js';
import type { SimLine, SimulatorSettings } from './simulator.types.js';

const START = Date.UTC(2026, 5, 28, 8, 40);
const settings = (seed: number): SimulatorSettings => ({ seed, startTimeMs: START, wallets: 160, markets: 8, eventsPerSecond: 1 });
const sha = (lines: SimLine[]): string =>
  createHash('sha256')
    .update(lines.map((l) => `${l.stream}\t${l.line}\n`).join(''))
    .digest('hex');

// One run shared by the content checks: 70 simulated minutes, across one funding hour.
const sim = new HyperliquidSimulator(settings(7));
const lines = [...sim.run(START + 70 * 60_000)];
const blocks: NodeBlock[] = lines.map((l, i) => {
  const result = parseBlockLine(l.stream, l.line, { line: i + 1 });
  if (!result.ok) throw new Error(`line ${i + 1}: ${result.error.message}`);
  if (result.issues.length > 0) throw new Error(`line ${i + 1}: ${result.issues[0]!.path} ${result.issues[0]!.message}`);
  return result.value;
});
const fills = blocks.flatMap((b) => (b.stream === 'node_fills_by_block' ? b.events : []));
const orders = blocks.flatMap((b) => (b.stream === 'node_order_statuses_by_block' ? b.events : []));
const twaps = blocks.flatMap((b) => (b.stream === 'node_twap_statuses_by_block' ? b.events : []));
const misc = blocks.flatMap((b) => (b.stream === 'misc_events_by_block' ? b.events : []));
const byTid = new Map<number, NodeFillEvent[]>();
for (const f of fills) byTid.set(f.fill.tid, [...(byTid.get(f.fill.tid) ?? []), f]);
const otherSide = (f: NodeFillEvent): NodeFillEvent => byTid.get(f.fill.tid)!.find((x) => x !== f)!;

describe('HyperliquidSimulator', () => {
  it('is deterministic: same seed and settings give byte-identical lines, another seed different ones', () => {
    const until = START + 10 * 60_000;
    const a = [...simulate(settings(3), until)];
    const b = [...simulate(settings(3), until)];
    const c = [...simulate(settings(4), until)];
    expect(a.length).toBeGreaterThan(100);
    expect(sha(a)).toBe(sha(b));
    expect(sha(a)).not.toBe(sha(c));
  });

  it('gives the same lines whether run in one go or in chunks', () => {
    const until = START + 5 * 60_000;
    const whole = [...simulate(settings(5), until)];
    const chunked = new HyperliquidSimulator(settings(5));
    const parts = [...chunked.run(START + 61_000), ...chunked.run(START + 185_000), ...chunked.run(until)];
    expect(sha(parts)).toBe(sha(whole));
  });

  it('writes only lines the real parser reads without an issue, in block order', () => {
    expect(blocks.length).toBe(lines.length);
    expect(blocks.every((b, i) => i === 0 || b.blockNumber >= blocks[i - 1]!.blockNumber)).toBe(true);
    expect(blocks.every((b) => b.blockTimeMs > START && b.blockTimeMs <= START + 70 * 60_000)).toBe(true);
  });

  it('pairs every trade: two fills share a tid, opposite sides, same px and sz, one taker and one maker', () => {
    expect(byTid.size).toBeGreaterThan(1000);
    const bad = [...byTid.values()].filter((pair) => {
      if (pair.length !== 2) return true;
      const [x, y] = pair as [NodeFillEvent, NodeFillEvent];
      return (
        x.fill.side === y.fill.side ||
        x.fill.px !== y.fill.px ||
        x.fill.sz !== y.fill.sz ||
        x.fill.coin !== y.fill.coin ||
        x.fill.hash !== y.fill.hash ||
        x.fill.crossed === y.fill.crossed ||
        x.address === y.address
      );
    });
    expect(bad).toEqual([]);
  });

  it('chains startPosition exactly per wallet and coin, and dir agrees with it', () => {
    const last = new Map<string, Big>();
    const broken: string[] = [];
    for (const { address, fill } of fills) {
      const key = `${address}|${fill.coin}`;
      const start = new Big(fill.startPosition);
      const end = start.plus(fill.side === 'B' ? fill.sz : new Big(fill.sz).neg());
      const dirOk =
        fill.dir === 'Open Long'
          ? start.gte(0) && fill.side === 'B'
          : fill.dir === 'Open Short'
            ? start.lte(0) && fill.side === 'A'
            : fill.dir === 'Long > Short'
              ? start.gt(0) && end.lt(0)
              : fill.dir === 'Short > Long'
                ? start.lt(0) && end.gt(0)
                : fill.dir === 'Close Long'
                  ? start.gt(0) && end.gte(0)
                  : fill.dir === 'Close Short'
                    ? start.lt(0) && end.lte(0)
                    : false;
      if (!start.eq(last.get(key) ?? 0) || !dirOk) broken.push(`${key} tid ${fill.tid}`);
      last.set(key, end);
    }
    expect(broken).toEqual([]);
    // The wallet state the simulator exposes is where the fills end.
    for (const state of sim.walletStates()) {
      for (const p of state.positions) expect(new Big(p.szi).eq(last.get(`${state.address}|${p.coin}`) ?? 0)).toBe(true);
    }
  });

  it('has builder fills, HIP-3 markets and liquidations named on both sides', () => {
    expect(fills.some((f) => f.fill.builder !== null && f.fill.builderFee !== null && f.fill.crossed)).toBe(true);
    expect(fills.some((f) => /^[a-z]+:[A-Z]+$/.test(f.fill.coin))).toBe(true);
    const liquidations = fills.filter((f) => f.fill.liquidation !== null);
    const victims = liquidations.filter((f) => f.fill.liquidation!.liquidatedUser === f.address);
    expect(victims.length).toBeGreaterThan(0);
    expect(liquidations.length).toBe(victims.length * 2);
    for (const v of victims) {
      expect(v.fill.dir.startsWith('Close')).toBe(true);
      expect(new Big(v.fill.startPosition).abs().eq(v.fill.sz)).toBe(true);
      const other = otherSide(v);
      expect(other.fill.liquidation).toEqual(v.fill.liquidation);
    }
  });

  it('runs TWAPs through every status with zero-hash slices carrying the twap id on the owner side', () => {
    const statuses = new Set(twaps.map((t) => t.status));
    expect([...statuses].sort()).toEqual(['activated', 'error', 'finished', 'terminated']);
    const slices = fills.filter((f) => f.fill.twapId !== null);
    expect(slices.length).toBeGreaterThan(0);
    const zero = `0x${'0'.repeat(64)}`;
    expect(slices.filter((s) => s.fill.hash !== zero || otherSide(s).fill.hash !== zero || otherSide(s).fill.twapId !== null)).toEqual([]);
    for (const done of twaps.filter((t) => t.status === 'finished')) expect(done.state.executedSz).toBe(done.state.sz);
    expect(twaps.find((t) => t.status === 'error')!.description).toBe('Insufficient margin to place order.');
  });

  it('writes order statuses of all five order types, partial fills and a margin rejection', () => {
    const types = new Set(orders.map((o) => o.order.orderType));
    expect([...types].sort()).toEqual(['Limit', 'Stop Limit', 'Stop Market', 'Take Profit Limit', 'Take Profit Market']);
    const statuses = new Set(orders.map((o) => o.status));
    for (const s of ['open', 'filled', 'canceled', 'triggered', 'perpMarginRejected']) expect(statuses.has(s)).toBe(true);
    expect(orders.some((o) => o.status === 'canceled' && new Big(o.order.sz).lt(o.order.origSz) && new Big(o.order.sz).gt(0))).toBe(true);
    expect(orders.some((o) => o.builder !== null)).toBe(true);
    for (const o of orders.filter((x) => x.order.isTrigger)) expect(o.order.triggerCondition).toMatch(/^Price (above|below) \d/);
  });

  it('writes deposits, withdrawals, sends, funding and HYPE staking', () => {
    const kinds = new Set(misc.map((m) => (m.kind === 'ledgerUpdate' ? `ledger:${m.delta.type}` : m.kind)));
    for (const k of ['ledger:deposit', 'ledger:withdraw', 'ledger:send', 'funding', 'delegation', 'cDeposit', 'cWithdrawal'])
      expect(kinds.has(k)).toBe(true);
    const funding = misc.filter((m) => m.kind === 'funding');
    expect(funding).toHaveLength(1);
    for (const f of funding) expect(new Date(f.timeMs).getUTCMinutes()).toBe(0);
  });

  it('spreads wallets over all 8 size and all 8 pnl cohorts', () => {
    const traders = sim.walletStates().filter((w) => w.role === 'trader');
    expect(traders).toHaveLength(160);
    expect(new Set(traders.map((w) => sizeCohortFor(w.perpEquity))).size).toBe(8);
    expect(new Set(traders.map((w) => pnlCohortFor(w.allTimePnl))).size).toBe(8);
    for (const w of sim.walletStates()) {
      expect(new Big(w.spotHype).gte(0)).toBe(true);
      expect(new Big(w.stakedHype).gte(0)).toBe(true);
    }
  });
});
