import { BlockDraft } from './block-draft.js';
import { LedgerEventsWriter } from './ledger-events.writer.js';
import { LiquidationsWriter } from './liquidations.writer.js';
import { ladderLevels, MarketMakers } from './market-maker.js';
import { MarketBook } from './market-book.js';
import { MarketOrdersWriter } from './market-orders.writer.js';
import { OrderDesk } from './order-desk.js';
import { OrderMatcher } from './order-matching.js';
import { RestingBooks } from './resting-book.js';
import { SeededRandom } from './seeded-random.js';
import { DEFAULT_BOOK_ORDERS, type ExchangeClock, type SimLine, type SimulatorSettings } from './simulator.types.js';
import { TradeWriter } from './trade-writer.js';
import { TriggerOrdersWriter } from './trigger-orders.writer.js';
import { TwapOrdersWriter } from './twap-orders.writer.js';
import { UserLimitOrders } from './user-limit-orders.js';
import { WalletBook, type WalletSnapshot } from './wallet-book.js';
import { nodeTime, unitsToDecimal } from './wire-format.js';

const HOUR_MS = 3_600_000;

/**
 * A deterministic synthetic Hyperliquid. It owns its exchange clock (started at `startTimeMs`, moved
 * 0.1 to 1 s per block) and writes what happens as hl-node `--batch-by-block` lines, so the real
 * parser is what reads them. Same settings, same lines, byte for byte. Each concern is a writer of its
 * own; this class runs the blocks and decides, by one draw per user action, whose turn it is.
 */
export class HyperliquidSimulator implements ExchangeClock {
  readonly markets: MarketBook;
  readonly wallets: WalletBook;
  private readonly random: SeededRandom;
  private readonly volatility: number;
  private clockMs: number;
  /** Exchange time the runs so far went to: the next run's blocks come after it. */
  private runUntilMs: number;
  private pendingDtMs: number | null = null;
  private blockNumber = 800_000_000;
  private readonly books = new RestingBooks();
  private readonly marketMakers: MarketMakers;
  private readonly userOrders: UserLimitOrders;
  private readonly marketOrders: MarketOrdersWriter;
  private readonly triggers: TriggerOrdersWriter;
  private readonly twaps: TwapOrdersWriter;
  private readonly liquidations: LiquidationsWriter;
  private readonly ledger: LedgerEventsWriter;

  constructor(readonly settings: SimulatorSettings) {
    if (!Number.isSafeInteger(settings.startTimeMs) || settings.startTimeMs < 0) throw new Error('startTimeMs must be epoch ms');
    if (settings.wallets < 2) throw new Error('wallets must be 2 or more');
    if (!(settings.eventsPerSecond > 0)) throw new Error('eventsPerSecond must be positive');
    const bookOrders = settings.bookOrders ?? DEFAULT_BOOK_ORDERS;
    if (!Number.isSafeInteger(bookOrders) || bookOrders < 0) throw new Error('bookOrders must be a whole number, 0 or more');
    this.random = new SeededRandom(settings.seed);
    this.volatility = settings.hourlyVolatility ?? 0.02;
    this.clockMs = settings.startTimeMs;
    this.runUntilMs = settings.startTimeMs;
    // The wallets, builders and validators are drawn first, in this order: every later draw follows theirs.
    this.markets = new MarketBook(settings.markets);
    this.wallets = new WalletBook(settings.wallets, settings.makers ?? 3, this.random, this.markets);
    const builders = [0, 1, 2].map(() => `0x${this.random.hex(40)}`);
    const validators = [0, 1, 2].map(() => `0x${this.random.hex(40)}`);
    const { random, wallets, markets, books } = this;
    // The writers read the exchange time from the simulator itself (its `nowMs`).
    const desk = new OrderDesk(random, this);
    const matcher = new OrderMatcher(books, new TradeWriter(random, wallets, this), desk, wallets.makers, random);
    const levels = ladderLevels(bookOrders, wallets.makers.length * markets.markets.length * 2);
    this.marketMakers = new MarketMakers(wallets.makers, markets.markets, books, desk, random, levels);
    const userTarget = Math.max(0, bookOrders - levels * wallets.makers.length * markets.markets.length * 2);
    const parties = { traders: wallets.traders, makers: wallets.makers, markets: markets.markets, builders };
    this.userOrders = new UserLimitOrders(userTarget, parties, books, desk, matcher, random, this);
    this.marketOrders = new MarketOrdersWriter(random, desk, matcher, wallets, builders);
    this.triggers = new TriggerOrdersWriter(random, desk, markets, this.marketOrders, builders, this);
    this.twaps = new TwapOrdersWriter(random, desk, matcher, this.marketOrders, this);
    this.liquidations = new LiquidationsWriter(desk, matcher, wallets, markets);
    this.ledger = new LedgerEventsWriter(random, desk, wallets, markets, validators, this);
  }

  /** Number of the last block written (before the first block, the one before it). */
  get height(): number {
    return this.blockNumber;
  }

  /** Exchange time of the last block (epoch ms). */
  get nowMs(): number {
    return this.clockMs;
  }

  /** Exchange time the runs so far reached (at or after the last block): where the next run starts. */
  get reachedMs(): number {
    return this.runUntilMs;
  }

  /**
   * Lines of every block up to and including `untilMs`, in block order. Runs can be chained
   * (run(a) then run(b)) with the same output as run(b) alone.
   */
  *run(untilMs: number): Generator<SimLine> {
    for (;;) {
      this.pendingDtMs ??= this.random.int(100, 1000);
      if (this.clockMs + this.pendingDtMs > untilMs) {
        this.runUntilMs = Math.max(this.runUntilMs, untilMs);
        return;
      }
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
    const open = [...this.books.orders(), ...this.triggers.open()];
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
    if (Math.floor(previous / HOUR_MS) !== Math.floor(this.clockMs / HOUR_MS)) this.ledger.funding(draft);
    this.triggers.fire(draft);
    this.liquidations.liquidate(draft);
    this.twaps.slices(draft);
    const expected = (this.settings.eventsPerSecond * dt) / 1000;
    const count = Math.floor(expected) + (this.random.chance(expected - Math.floor(expected)) ? 1 : 0);
    for (let i = 0; i < count; i++) this.userAction(draft);
    return draft.lines();
  }

  private userAction(d: BlockDraft): void {
    const r = this.random.next();
    const wallet = this.random.pick(this.wallets.traders);
    const market = this.random.pick(this.markets.markets);
    if (r < 0.7) this.marketOrders.marketTrade(d, wallet, market);
    else if (r < 0.77) this.triggers.place(d, wallet);
    else if (r < 0.79) this.twaps.start(d, wallet, market);
    else if (r < 0.8) this.marketOrders.rejectedOrder(d, wallet, market);
    else if (r < 0.86) this.ledger.deposit(d, wallet);
    else if (r < 0.91) this.ledger.withdraw(d, wallet);
    else if (r < 0.93) this.ledger.sendHype(d, wallet);
    else if (r < 0.97) this.ledger.stake(d, wallet);
    else this.ledger.unstake(d, wallet);
  }
}

/** The lines of a fresh simulator from its start to `untilMs`. */
export function* simulate(settings: SimulatorSettings, untilMs: number): Generator<SimLine> {
  yield* new HyperliquidSimulator(settings).run(untilMs);
}
