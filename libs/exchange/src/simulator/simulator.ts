import { BlockDraft } from './block-draft.js';
import { hlDecimalOf, pow10, rescale } from './fixed-decimal.js';
import { ladderLevels, MarketMakers } from './market-maker.js';
import { MarketBook, type Market } from './market-book.js';
import { leftOf, OrderDesk } from './order-desk.js';
import type { WireBuilder, WireOrder } from './order-event.js';
import type { Side } from './side.js';
import { OrderMatcher } from './order-matching.js';
import { RestingBooks } from './resting-book.js';
import { SeededRandom, type Ranges } from './seeded-random.js';
import { DEFAULT_BOOK_ORDERS, type SimLine, type SimulatorSettings } from './simulator.types.js';
import { BUILDER_FEE_TENTHS_BP, TradeWriter } from './trade-writer.js';
import { UserLimitOrders } from './user-limit-orders.js';
import { MONEY_DP, PNL_DP, WalletBook, type Wallet, type WalletSnapshot } from './wallet-book.js';
import { nodeTime, unitsToDecimal, ZERO_HASH } from './wire-format.js';

const TWAP_SLICE_MS = 30_000;
const HOUR_MS = 3_600_000;
// Fixed rotation rather than a draw, so any run with a handful of TWAPs shows every ending.
const TWAP_ENDINGS = ['finished', 'terminated', 'finished', 'error', 'finished', 'terminated', 'error'] as const;
const TRIGGER_TYPES = ['Stop Market', 'Stop Limit', 'Take Profit Market', 'Take Profit Limit'] as const;
/** Places of a funding rate, as hl-node writes them. */
const FUNDING_RATE_DP = 10;

/**
 * USD the in-block maker quote at the touch offers a market order before the resting orders behind it
 * are swept: [low, high, weight] ranges, so large orders walk into the makers' ladders and users' orders.
 */
const TOUCH_NOTIONAL: Ranges = [
  [25_000, 100_000, 0.3],
  [100_000, 500_000, 0.4],
  [500_000, 3_000_000, 0.3],
];

/** USD a taker takes at most from the resting orders behind the touch: mostly part of the nearest level. */
const SWEEP_NOTIONAL: Ranges = [
  [500, 10_000, 0.6],
  [10_000, 60_000, 0.4],
];

interface ActiveTwap {
  id: number;
  owner: Wallet;
  market: Market;
  side: Side;
  sliceUnits: number;
  totalUnits: number;
  minutes: number;
  randomize: boolean;
  startedMs: number;
  stopAfter: number;
  ending: (typeof TWAP_ENDINGS)[number];
  slicesDone: number;
  executedUnits: number;
  /** In units of 10^-(pxDecimals + szDecimals) of the market: exact. */
  executedNtl: bigint;
  nextSliceMs: number;
}

interface PendingTrigger {
  wallet: Wallet;
  market: Market;
  order: WireOrder;
  units: number;
  limitTicks: number;
  above: boolean;
  triggerTicks: number;
  expiresMs: number;
  builder: WireBuilder | null;
}

/**
 * A deterministic synthetic Hyperliquid. It owns its exchange clock (started at `startTimeMs`, moved
 * 0.1 to 1 s per block) and writes what happens as hl-node `--batch-by-block` lines, so the real
 * parser is what reads them. Same settings, same lines, byte for byte.
 */
export class HyperliquidSimulator {
  readonly markets: MarketBook;
  readonly wallets: WalletBook;
  private readonly random: SeededRandom;
  private readonly volatility: number;
  private readonly builders: string[];
  private readonly validators: string[];
  private clockMs: number;
  private pendingDtMs: number | null = null;
  private blockNumber = 800_000_000;
  private readonly desk: OrderDesk;
  private readonly trades: TradeWriter;
  private readonly books = new RestingBooks();
  private readonly matcher: OrderMatcher;
  private readonly marketMakers: MarketMakers;
  private readonly userOrders: UserLimitOrders;
  private twapId = 1_000_000;
  private nonce = 0;
  private readonly twaps: ActiveTwap[] = [];
  private readonly triggers: PendingTrigger[] = [];

  constructor(private readonly settings: SimulatorSettings) {
    if (!Number.isSafeInteger(settings.startTimeMs) || settings.startTimeMs < 0) throw new Error('startTimeMs must be epoch ms');
    if (settings.wallets < 2) throw new Error('wallets must be 2 or more');
    if (!(settings.eventsPerSecond > 0)) throw new Error('eventsPerSecond must be positive');
    const bookOrders = settings.bookOrders ?? DEFAULT_BOOK_ORDERS;
    if (!Number.isSafeInteger(bookOrders) || bookOrders < 0) throw new Error('bookOrders must be a whole number, 0 or more');
    this.random = new SeededRandom(settings.seed);
    this.volatility = settings.hourlyVolatility ?? 0.02;
    this.clockMs = settings.startTimeMs;
    this.markets = new MarketBook(settings.markets);
    this.wallets = new WalletBook(settings.wallets, settings.makers ?? 3, this.random, this.markets);
    this.builders = [0, 1, 2].map(() => `0x${this.random.hex(40)}`);
    this.validators = [0, 1, 2].map(() => `0x${this.random.hex(40)}`);
    const clock = () => this.clockMs;
    this.desk = new OrderDesk(this.random, clock);
    this.trades = new TradeWriter(this.random, this.wallets, clock);
    this.matcher = new OrderMatcher(this.books, this.trades, this.desk, this.wallets.makers, this.random);
    const levels = ladderLevels(bookOrders, this.wallets.makers.length * this.markets.markets.length * 2);
    this.marketMakers = new MarketMakers(this.wallets.makers, this.markets.markets, this.books, this.desk, this.random, levels);
    const userTarget = Math.max(0, bookOrders - levels * this.wallets.makers.length * this.markets.markets.length * 2);
    const parties = { traders: this.wallets.traders, makers: this.wallets.makers, markets: this.markets.markets, builders: this.builders };
    this.userOrders = new UserLimitOrders(userTarget, parties, this.books, this.desk, this.matcher, this.random, clock);
  }

  /** Number of the last block written (before the first block, the one before it). */
  get height(): number {
    return this.blockNumber;
  }

  /** Exchange time of the last block (epoch ms). */
  get nowMs(): number {
    return this.clockMs;
  }

  /**
   * Lines of every block up to and including `untilMs`, in block order. Runs can be chained
   * (run(a) then run(b)) with the same output as run(b) alone.
   */
  *run(untilMs: number): Generator<SimLine> {
    for (;;) {
      this.pendingDtMs ??= this.random.int(100, 1000);
      if (this.clockMs + this.pendingDtMs > untilMs) return;
      const dt = this.pendingDtMs;
      this.pendingDtMs = null;
      yield* this.block(dt);
    }
  }

  /** Every wallet's state now (positions, cash, equity, PnL, HYPE spot and staked): what a state source snapshots. */
  walletStates(): WalletSnapshot[] {
    return this.wallets.wallets.map((w) => this.wallets.snapshot(w));
  }

  /** Every order open now: resting limit orders and untriggered trigger orders, with the size left. */
  openOrders(): { address: string; oid: number; coin: string; orderType: string; sz: string }[] {
    const open = [
      ...this.books.orders(),
      ...this.triggers.map((t) => ({ owner: t.wallet, wire: t.order, market: t.market, units: t.units })),
    ];
    return open.map((o) => ({
      address: o.owner.address,
      oid: o.wire.oid,
      coin: o.wire.coin,
      orderType: o.wire.orderType,
      sz: unitsToDecimal(o.units, o.market.spec.szDecimals),
    }));
  }

  /** Current mark price of each market. */
  marketPrices(): { coin: string; px: string }[] {
    return this.markets.markets.map((m) => ({ coin: m.coin, px: m.pxText() }));
  }

  private block(dt: number): SimLine[] {
    const previous = this.clockMs;
    this.clockMs += dt;
    this.blockNumber += Math.floor(dt / 70) + 1;
    const time = nodeTime(this.clockMs, this.random.int(0, 999_999));
    const local = nodeTime(this.clockMs + this.random.int(50, 400), this.random.int(0, 999_999));
    const draft = new BlockDraft(this.blockNumber, this.clockMs, time, local);

    this.markets.step(this.random, dt, this.volatility);
    // Makers pull the quotes the price came at before anything trades in the block.
    this.marketMakers.requote(draft);
    this.userOrders.maintain(draft);
    if (Math.floor(previous / HOUR_MS) !== Math.floor(this.clockMs / HOUR_MS)) this.funding(draft);
    this.fireTriggers(draft);
    this.liquidate(draft);
    this.twapSlices(draft);
    const expected = (this.settings.eventsPerSecond * dt) / 1000;
    const count = Math.floor(expected) + (this.random.chance(expected - Math.floor(expected)) ? 1 : 0);
    for (let i = 0; i < count; i++) this.userAction(draft);
    return draft.lines();
  }

  private userAction(d: BlockDraft): void {
    const r = this.random.next();
    const wallet = this.random.pick(this.wallets.traders);
    const market = this.random.pick(this.markets.markets);
    if (r < 0.7) this.marketTrade(d, wallet, market);
    else if (r < 0.77) this.placeTrigger(d, wallet);
    else if (r < 0.79) this.startTwap(d, wallet, market);
    else if (r < 0.8) this.rejectedOrder(d, wallet, market);
    else if (r < 0.86) this.deposit(d, wallet);
    else if (r < 0.91) this.withdraw(d, wallet);
    else if (r < 0.93) this.sendHype(d, wallet);
    else if (r < 0.97) this.stake(d, wallet);
    else this.unstake(d, wallet);
  }

  // ---- trading -------------------------------------------------------------------------------

  private hash(): string {
    return this.desk.hash();
  }

  private nextNonce(): number {
    this.nonce = Math.max(this.nonce + 1, this.clockMs);
    return this.nonce;
  }

  /** Size units of a wallet's open position in a market (0 if flat). */
  private positionUnits(wallet: Wallet, market: Market): number {
    const position = wallet.positions.get(market.coin);
    return position ? position.units : 0;
  }

  /** How many units a taker trade would be, or 0: reduce or flip an open position, or open within the wallet's leverage. */
  private takerSize(wallet: Wallet, market: Market): { side: Side; units: number } {
    const held = this.positionUnits(wallet, market);
    const equity = this.wallets.equityNumber(wallet);
    if (held !== 0 && this.random.chance(0.45)) {
      const fraction = this.random.pick([0.25, 0.5, 1, 1, 1.5]);
      return { side: held > 0 ? 'A' : 'B', units: Math.max(1, Math.round(Math.abs(held) * fraction)) };
    }
    const capacity = equity * wallet.profile.leverage - this.wallets.notional(wallet);
    if (equity <= 1 || capacity <= equity * 0.05) return { side: 'B', units: 0 };
    const degen = wallet.profile.leverage > 10;
    const notional = capacity * (degen ? this.random.between(0.6, 0.95) : this.random.between(0.1, 0.5));
    return { side: this.random.chance(0.5) ? 'B' : 'A', units: market.unitsFor(notional) };
  }

  /** Units of a notional drawn from `ranges`, at least one. */
  private unitsIn(market: Market, ranges: Ranges): number {
    return Math.max(1, market.unitsFor(this.random.inRanges(ranges)));
  }

  /** A market order: an IOC at 1 % through the mid, filled whole against the touch and the books behind it. */
  private marketTrade(d: BlockDraft, taker: Wallet, market: Market): void {
    const { side, units } = this.takerSize(taker, market);
    if (units <= 0) return;
    const slip = this.random.int(0, 2);
    const touchTicks = Math.max(1, side === 'B' ? market.ticks + slip : market.ticks - slip);
    const builder = this.random.chance(0.2) ? this.random.pick(this.builders) : null;
    const wireBuilder = builder === null ? null : { b: builder, f: BUILDER_FEE_TENTHS_BP };
    const limitTicks = market.ticksAt(side === 'B' ? 0.01 : -0.01);
    const order = this.desk.limitOrder(market, side, limitTicks, units, 'Ioc', this.desk.cloid(0.3));
    this.matcher.take(d, {
      taker,
      market,
      side,
      units,
      oid: order.oid,
      cloid: order.cloid,
      limitTicks,
      touchTicks,
      touchUnits: this.unitsIn(market, TOUCH_NOTIONAL),
      sweepUnits: this.unitsIn(market, SWEEP_NOTIONAL),
      hash: this.hash(),
      twapId: null,
      builder,
    });
    this.desk.status(d, taker, null, wireBuilder, 'filled', leftOf(order, market, 0));
  }

  /** An order far beyond the wallet's margin: hl-node reports it with a rejection status and no fill. */
  private rejectedOrder(d: BlockDraft, wallet: Wallet, market: Market): void {
    const equity = Math.max(1000, this.wallets.equityNumber(wallet));
    const units = Math.max(1, market.unitsFor(equity * 60));
    const side: Side = this.random.chance(0.5) ? 'B' : 'A';
    const order = this.desk.limitOrder(market, side, market.ticksAt(side === 'B' ? 0.001 : -0.001), units, 'Gtc', this.desk.cloid(0.3));
    this.desk.status(d, wallet, null, null, 'perpMarginRejected', order);
  }

  private placeTrigger(d: BlockDraft, wallet: Wallet): void {
    const held = [...wallet.positions.values()];
    if (held.length === 0) return;
    const market = this.markets.get(this.random.pick(held).coin);
    const units = Math.abs(this.positionUnits(wallet, market));
    const long = units > 0 && this.positionUnits(wallet, market) > 0;
    const orderType = this.random.pick(TRIGGER_TYPES);
    const stop = orderType.startsWith('Stop');
    // A stop sits on the losing side of the position, a take-profit on the winning side.
    const above = stop ? !long : long;
    const distance = this.random.between(0.002, 0.01);
    const triggerTicks = market.ticksAt(above ? distance : -distance);
    const side: Side = long ? 'A' : 'B';
    const isMarket = orderType.endsWith('Market');
    const slippage = isMarket ? 0.1 : 0.002;
    const limitTicks = Math.max(1, Math.round(triggerTicks * (side === 'B' ? 1 + slippage : 1 - slippage)));
    const size = this.random.chance(0.5) ? units : Math.max(1, Math.floor(units / 2));
    const triggerPx = market.pxText(triggerTicks);
    const base = this.desk.limitOrder(market, side, limitTicks, size, null, this.desk.cloid(0.3));
    const order: WireOrder = {
      ...base,
      triggerCondition: `Price ${above ? 'above' : 'below'} ${triggerPx}`,
      isTrigger: true,
      triggerPx,
      reduceOnly: true,
      orderType,
    };
    const builder = this.random.chance(0.2) ? { b: this.random.pick(this.builders), f: BUILDER_FEE_TENTHS_BP } : null;
    const expiresMs = this.clockMs + this.random.int(30 * 60_000, 3 * HOUR_MS);
    this.triggers.push({ wallet, market, order, units: size, limitTicks, above, triggerTicks, expiresMs, builder });
    this.desk.status(d, wallet, this.hash(), builder, 'open', order);
  }

  private fireTriggers(d: BlockDraft): void {
    for (let i = 0; i < this.triggers.length;) {
      const t = this.triggers[i]!;
      const reached = t.above ? t.market.ticks >= t.triggerTicks : t.market.ticks <= t.triggerTicks;
      if (!reached && this.clockMs < t.expiresMs) {
        i++;
        continue;
      }
      this.triggers.splice(i, 1);
      const { wallet, market, order, builder } = t;
      if (!reached) {
        this.desk.status(d, wallet, this.hash(), builder, 'canceled', order);
        continue;
      }
      this.desk.status(d, wallet, null, builder, 'triggered', order);
      // Reduce-only: it can only shrink what is still open on the closing side; the rest is canceled.
      const held = this.positionUnits(wallet, market);
      const reducible = order.side === 'A' ? Math.max(0, held) : Math.max(0, -held);
      const units = Math.min(t.units, reducible);
      if (units > 0) {
        this.matcher.take(d, {
          taker: wallet,
          market,
          side: order.side,
          units,
          oid: order.oid,
          cloid: order.cloid,
          limitTicks: t.limitTicks,
          touchTicks: market.ticks,
          touchUnits: this.unitsIn(market, TOUCH_NOTIONAL),
          sweepUnits: this.unitsIn(market, SWEEP_NOTIONAL),
          hash: this.hash(),
          twapId: null,
          builder: builder?.b ?? null,
        });
      }
      const status = units === t.units ? 'filled' : 'reduceOnlyCanceled';
      this.desk.status(d, wallet, null, builder, status, leftOf(order, market, t.units - units));
    }
  }

  // ---- liquidations -----------------------------------------------------------------------

  private liquidate(d: BlockDraft): void {
    const liquidator = this.wallets.makers[0]!;
    for (const market of this.markets.markets) {
      const px = market.pxNumber;
      const bounds = this.wallets.liquidationBounds(market.coin);
      if (px > bounds.longMax && px < bounds.shortMin) continue;
      // Most holders are far from liquidation: compare floats first, exact values only for the few that cross.
      const crossed = [...(this.wallets.holders.get(market.coin) ?? [])].filter((w) => {
        const liqPx = w.liquidationPx.get(market.coin);
        if (liqPx === undefined || w === liquidator) return false;
        return w.positions.get(market.coin)!.units > 0 ? px <= liqPx : px >= liqPx;
      });
      for (const victim of crossed) {
        const held = this.positionUnits(victim, market);
        const markPx = market.pxText();
        const { szDecimals, pxDecimals } = market.spec;
        const accountValue = hlDecimalOf(this.wallets.equity(victim), PNL_DP, MONEY_DP);
        const szi = unitsToDecimal(held, szDecimals);
        const ntl = hlDecimalOf(BigInt(Math.abs(held)) * BigInt(market.ticks), szDecimals + pxDecimals, MONEY_DP);
        this.matcher.quoted(d, liquidator, {
          taker: victim,
          market,
          side: held > 0 ? 'A' : 'B',
          units: Math.abs(held),
          pxTicks: market.ticks,
          hash: this.hash(),
          takerOid: this.desk.nextOid(),
          twapId: null,
          builder: null,
          takerCloid: null,
          liquidation: { liquidatedUser: victim.address, markPx, method: 'market' },
        });
        d.add(
          'misc_events_by_block',
          this.miscEvent(d, {
            LedgerUpdate: {
              users: [victim.address],
              delta: {
                type: 'liquidation',
                liquidatedNtlPos: ntl,
                accountValue,
                leverageType: 'Cross',
                liquidatedPositions: [{ coin: market.coin, szi }],
              },
            },
          }),
        );
      }
    }
  }

  // ---- TWAPs ------------------------------------------------------------------------------

  private twapState(t: ActiveTwap): Record<string, unknown> {
    const { spec } = t.market;
    return {
      coin: t.market.coin,
      user: t.owner.address,
      side: t.side,
      sz: unitsToDecimal(t.totalUnits, spec.szDecimals),
      executedSz: unitsToDecimal(t.executedUnits, spec.szDecimals),
      executedNtl: hlDecimalOf(t.executedNtl, spec.pxDecimals + spec.szDecimals, MONEY_DP),
      minutes: t.minutes,
      reduceOnly: false,
      randomize: t.randomize,
      timestamp: t.startedMs,
    };
  }

  private startTwap(d: BlockDraft, owner: Wallet, market: Market): void {
    const { side, units } = this.takerSize(owner, market);
    const minutes = this.random.int(5, 30);
    const slices = (minutes * 60_000) / TWAP_SLICE_MS;
    const sliceUnits = Math.floor(units / slices);
    if (sliceUnits < 1) return;
    const id = ++this.twapId;
    const ending = TWAP_ENDINGS[id % TWAP_ENDINGS.length]!;
    const twap: ActiveTwap = {
      id,
      owner,
      market,
      side,
      sliceUnits,
      totalUnits: sliceUnits * slices,
      minutes,
      randomize: this.random.chance(0.3),
      startedMs: this.clockMs,
      stopAfter: ending === 'finished' ? slices : ending === 'terminated' ? Math.floor(slices / 2) : Math.max(1, Math.floor(slices / 3)),
      ending,
      slicesDone: 0,
      executedUnits: 0,
      executedNtl: 0n,
      nextSliceMs: this.clockMs + TWAP_SLICE_MS,
    };
    this.twaps.push(twap);
    d.add('node_twap_statuses_by_block', { time: d.time, twap_id: id, state: this.twapState(twap), status: 'activated' });
  }

  private twapSlices(d: BlockDraft): void {
    for (let i = 0; i < this.twaps.length;) {
      const t = this.twaps[i]!;
      if (t.nextSliceMs > this.clockMs) {
        i++;
        continue;
      }
      // A slice is a market order into the book: the resting orders nearest the mid take it.
      const executions = this.matcher.take(d, {
        taker: t.owner,
        market: t.market,
        side: t.side,
        units: t.sliceUnits,
        oid: this.desk.nextOid(),
        cloid: null,
        limitTicks: t.market.ticksAt(t.side === 'B' ? 0.01 : -0.01),
        touchTicks: Math.max(1, t.market.ticks + (t.side === 'B' ? 1 : -1)),
        touchUnits: 0,
        sweepUnits: t.sliceUnits,
        // TWAP slices carry the all-zero hash on both sides, as hl-node writes them.
        hash: ZERO_HASH,
        twapId: t.id,
        builder: null,
      });
      t.slicesDone++;
      t.executedUnits += t.sliceUnits;
      for (const e of executions) t.executedNtl += BigInt(e.pxTicks) * BigInt(e.units);
      t.nextSliceMs += TWAP_SLICE_MS;
      if (t.slicesDone < t.stopAfter) {
        i++;
        continue;
      }
      this.twaps.splice(i, 1);
      const status = t.ending === 'error' ? { error: 'Insufficient margin to place order.' } : t.ending;
      d.add('node_twap_statuses_by_block', { time: d.time, twap_id: t.id, state: this.twapState(t), status });
    }
  }

  // ---- ledger, staking, funding -----------------------------------------------------------

  private miscEvent(d: BlockDraft, inner: Record<string, unknown>, hash = this.hash()): Record<string, unknown> {
    return { time: d.time, hash, inner };
  }

  private cents(amount: number): number {
    return Math.max(1, Math.round(amount * 100));
  }

  private deposit(d: BlockDraft, wallet: Wallet): void {
    const cents = this.cents(wallet.profile.targetEquity * this.random.between(0.002, 0.02));
    wallet.cash += BigInt(cents) * pow10(MONEY_DP - 2);
    this.wallets.refreshLiquidationPrices(wallet);
    d.add(
      'misc_events_by_block',
      this.miscEvent(d, { LedgerUpdate: { users: [wallet.address], delta: { type: 'deposit', usdc: unitsToDecimal(cents, 2) } } }),
    );
  }

  /** The fee is inside `usdc`: the perp balance drops by `usdc`, the user receives usdc - fee. */
  private withdraw(d: BlockDraft, wallet: Wallet): void {
    const equity = this.wallets.equityNumber(wallet);
    const free = equity - this.wallets.notional(wallet) / 20;
    if (free < 50) return;
    const cents = this.cents(Math.min(free, wallet.profile.targetEquity) * this.random.between(0.002, 0.02));
    if (cents <= 100) return;
    wallet.cash -= BigInt(cents) * pow10(MONEY_DP - 2);
    this.wallets.refreshLiquidationPrices(wallet);
    const delta = { type: 'withdraw', usdc: unitsToDecimal(cents, 2), nonce: this.nextNonce(), fee: '1.0' };
    d.add('misc_events_by_block', this.miscEvent(d, { LedgerUpdate: { users: [wallet.address], delta } }));
  }

  /** HYPE's price in units of 10^-dp. */
  private hypePrice(): { ticks: number; dp: number } {
    const hype = this.markets.markets.find((m) => m.coin === 'HYPE');
    return hype ? { ticks: hype.ticks, dp: hype.spec.pxDecimals } : { ticks: 38, dp: 0 };
  }

  /** A spot HYPE send between two wallets, shaped like the recorded `send` delta. */
  private sendHype(d: BlockDraft, wallet: Wallet): void {
    const cents = Math.floor(wallet.spotHypeCents * this.random.between(0.05, 0.5));
    if (cents < 1) return;
    let destination = this.random.pick(this.wallets.traders);
    if (destination === wallet)
      destination = this.wallets.traders[(this.wallets.traders.indexOf(wallet) + 1) % this.wallets.traders.length]!;
    wallet.spotHypeCents -= cents;
    destination.spotHypeCents += cents;
    const hype = this.hypePrice();
    const delta = {
      type: 'send',
      user: wallet.address,
      destination: destination.address,
      sourceDex: 'spot',
      destinationDex: 'spot',
      token: 'HYPE',
      amount: unitsToDecimal(cents, 2),
      usdcValue: hlDecimalOf(BigInt(cents) * BigInt(hype.ticks), 2 + hype.dp, MONEY_DP),
      fee: '0.0',
      nativeTokenFee: '0.0',
      nonce: this.nextNonce(),
      feeToken: '',
    };
    d.add('misc_events_by_block', this.miscEvent(d, { LedgerUpdate: { users: [wallet.address, destination.address], delta } }));
  }

  /** Spot HYPE into staking (CDeposit) and delegated to a validator in the same transaction. */
  private stake(d: BlockDraft, wallet: Wallet): void {
    const cents = Math.floor(wallet.spotHypeCents * this.random.between(0.1, 0.5));
    if (cents < 1) return;
    wallet.spotHypeCents -= cents;
    wallet.stakedHypeCents += cents;
    const text = unitsToDecimal(cents, 2);
    const hash = this.hash();
    d.add('misc_events_by_block', this.miscEvent(d, { CDeposit: { user: wallet.address, amount: text } }, hash));
    const validator = this.random.pick(this.validators);
    d.add(
      'misc_events_by_block',
      this.miscEvent(d, { Delegation: { user: wallet.address, validator, amount: text, is_undelegate: false } }, hash),
    );
  }

  /** Undelegate and withdraw from staking; the 7-day unstaking queue is not modelled: the HYPE is back in spot at once. */
  private unstake(d: BlockDraft, wallet: Wallet): void {
    const cents = Math.floor(wallet.stakedHypeCents * this.random.between(0.1, 0.5));
    if (cents < 1) return;
    wallet.stakedHypeCents -= cents;
    wallet.spotHypeCents += cents;
    const text = unitsToDecimal(cents, 2);
    const hash = this.hash();
    const validator = this.random.pick(this.validators);
    d.add(
      'misc_events_by_block',
      this.miscEvent(d, { Delegation: { user: wallet.address, validator, amount: text, is_undelegate: true } }, hash),
    );
    d.add('misc_events_by_block', this.miscEvent(d, { CWithdrawal: { user: wallet.address, amount: text, is_finalized: false } }, hash));
  }

  /** Hourly funding: a positive amount is received, so longs pay when the rate is positive. */
  private funding(d: BlockDraft): void {
    const deltas: Record<string, string>[] = [];
    for (const market of this.markets.markets) {
      const { szDecimals, pxDecimals } = market.spec;
      const ratePerUnit = BigInt(market.fundingRateUnits) * BigInt(market.ticks);
      for (const wallet of this.wallets.holders.get(market.coin) ?? []) {
        const position = wallet.positions.get(market.coin)!;
        // size × price × rate, exact, then rounded: what the position receives.
        const amount = -rescale(BigInt(position.units) * ratePerUnit, szDecimals + pxDecimals + FUNDING_RATE_DP, MONEY_DP);
        wallet.cash += amount;
        wallet.funding += amount;
        position.funding += amount;
        deltas.push({
          user: wallet.address,
          coin: market.coin,
          funding_amount: hlDecimalOf(amount, MONEY_DP),
          szi: unitsToDecimal(position.units, szDecimals),
          funding_rate: unitsToDecimal(market.fundingRateUnits, FUNDING_RATE_DP),
        });
      }
    }
    for (const wallet of this.wallets.wallets) if (wallet.positions.size > 0) this.wallets.refreshLiquidationPrices(wallet);
    if (deltas.length > 0) d.add('misc_events_by_block', this.miscEvent(d, { Funding: { deltas } }, ZERO_HASH));
  }
}

/** The lines of a fresh simulator from its start to `untilMs`. */
export function* simulate(settings: SimulatorSettings, untilMs: number): Generator<SimLine> {
  yield* new HyperliquidSimulator(settings).run(untilMs);
}
