import type { BlockDraft } from './block-draft.js';
import { hlDecimalOf, pow10, rescale } from './fixed-decimal.js';
import type { MarketBook } from './market-book.js';
import type { OrderDesk } from './order-desk.js';
import type { SeededRandom } from './seeded-random.js';
import { MONEY_DP, type Wallet, type WalletBook } from './wallet-book.js';
import type { WireFundingDelta, WireLedgerDelta } from './wire-event.types.js';
import { unitsToDecimal, ZERO_HASH } from './wire-format.js';
import type { ExchangeClock } from './simulator.types.js';

/** Places of a funding rate, as hl-node writes them. */
const FUNDING_RATE_DP = 10;

/** Money that moves outside trades, as misc events: USDC deposits and withdrawals, HYPE sends and staking, hourly funding. */
export class LedgerEventsWriter {
  private nonce = 0;

  constructor(
    private readonly random: SeededRandom,
    private readonly desk: OrderDesk,
    private readonly wallets: WalletBook,
    private readonly markets: MarketBook,
    private readonly validators: readonly string[],
    private readonly clock: ExchangeClock,
  ) {}

  deposit(d: BlockDraft, wallet: Wallet): void {
    const cents = this.cents(wallet.profile.targetEquity * this.random.between(0.002, 0.02));
    wallet.cash += BigInt(cents) * pow10(MONEY_DP - 2);
    this.wallets.refreshLiquidationPrices(wallet);
    d.addMisc({ LedgerUpdate: { users: [wallet.address], delta: { type: 'deposit', usdc: unitsToDecimal(cents, 2) } } }, this.desk.hash());
  }

  /** The fee is inside `usdc`: the perp balance drops by `usdc`, the user receives usdc - fee. */
  withdraw(d: BlockDraft, wallet: Wallet): void {
    const equity = this.wallets.equityNumber(wallet);
    const free = equity - this.wallets.notional(wallet) / 20;
    if (free < 50) return;
    const cents = this.cents(Math.min(free, wallet.profile.targetEquity) * this.random.between(0.002, 0.02));
    if (cents <= 100) return;
    wallet.cash -= BigInt(cents) * pow10(MONEY_DP - 2);
    this.wallets.refreshLiquidationPrices(wallet);
    const delta: WireLedgerDelta = { type: 'withdraw', usdc: unitsToDecimal(cents, 2), nonce: this.nextNonce(), fee: '1.0' };
    d.addMisc({ LedgerUpdate: { users: [wallet.address], delta } }, this.desk.hash());
  }

  /** A spot HYPE send between two wallets, shaped like the recorded `send` delta. */
  sendHype(d: BlockDraft, wallet: Wallet): void {
    const cents = Math.floor(wallet.spotHypeCents * this.random.between(0.05, 0.5));
    if (cents < 1) return;
    let destination = this.random.pick(this.wallets.traders);
    if (destination === wallet)
      destination = this.wallets.traders[(this.wallets.traders.indexOf(wallet) + 1) % this.wallets.traders.length]!;
    wallet.spotHypeCents -= cents;
    destination.spotHypeCents += cents;
    const hype = this.hypePrice();
    const delta: WireLedgerDelta = {
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
    d.addMisc({ LedgerUpdate: { users: [wallet.address, destination.address], delta } }, this.desk.hash());
  }

  /** Spot HYPE into staking (CDeposit) and delegated to a validator in the same transaction. */
  stake(d: BlockDraft, wallet: Wallet): void {
    const cents = Math.floor(wallet.spotHypeCents * this.random.between(0.1, 0.5));
    if (cents < 1) return;
    wallet.spotHypeCents -= cents;
    wallet.stakedHypeCents += cents;
    const text = unitsToDecimal(cents, 2);
    const hash = this.desk.hash();
    d.addMisc({ CDeposit: { user: wallet.address, amount: text } }, hash);
    const validator = this.random.pick(this.validators);
    d.addMisc({ Delegation: { user: wallet.address, validator, amount: text, is_undelegate: false } }, hash);
  }

  /** Undelegate and withdraw from staking; the 7-day unstaking queue is not modelled: the HYPE is back in spot at once. */
  unstake(d: BlockDraft, wallet: Wallet): void {
    const cents = Math.floor(wallet.stakedHypeCents * this.random.between(0.1, 0.5));
    if (cents < 1) return;
    wallet.stakedHypeCents -= cents;
    wallet.spotHypeCents += cents;
    const text = unitsToDecimal(cents, 2);
    const hash = this.desk.hash();
    const validator = this.random.pick(this.validators);
    d.addMisc({ Delegation: { user: wallet.address, validator, amount: text, is_undelegate: true } }, hash);
    d.addMisc({ CWithdrawal: { user: wallet.address, amount: text, is_finalized: false } }, hash);
  }

  /** Hourly funding: a positive amount is received, so longs pay when the rate is positive. */
  funding(d: BlockDraft): void {
    const deltas: WireFundingDelta[] = [];
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
    if (deltas.length > 0) d.addMisc({ Funding: { deltas } }, ZERO_HASH);
  }

  private nextNonce(): number {
    this.nonce = Math.max(this.nonce + 1, this.clock.nowMs);
    return this.nonce;
  }

  private cents(amount: number): number {
    return Math.max(1, Math.round(amount * 100));
  }

  /** HYPE's price in units of 10^-dp. */
  private hypePrice(): { ticks: number; dp: number } {
    const hype = this.markets.markets.find((m) => m.coin === 'HYPE');
    return hype ? { ticks: hype.ticks, dp: hype.spec.pxDecimals } : { ticks: 38, dp: 0 };
  }
}
