import { parseClearinghouseState, parseSpotClearinghouseState } from '../info/clearinghouse-state.parser.js';
import { formatIssue } from '../parse/parse-result.js';
import type { ExchangeState, WalletStateRecord } from './exchange-state.types.js';
import { walletStateFromClearinghouse } from './clearinghouse-state.mapper.js';

/** What the source needs of an info client: `HyperliquidInfoClient` is one. */
export interface InfoRequester {
  request(body: { type: string } & Record<string, unknown>): Promise<unknown>;
}

export interface WalletReadFailure {
  address: string;
  error: string;
}

/**
 * Reads the state of known wallets from an info endpoint (a local node's info server, or the public
 * API): `clearinghouseState` and `spotClearinghouseState` per wallet, a few at a time, and HYPE's mid
 * from `allMids`. A wallet whose answer fails or does not parse is left out of the update (its rows
 * stay as they were) and reported; one bad wallet never stops the update. Staked HYPE is not read
 * (no recorded sample of `delegatorSummary` to check a parser against) and is reported as 0.
 */
export class InfoStateSource {
  constructor(
    private readonly info: InfoRequester,
    private readonly concurrency = 8,
  ) {}

  async read(
    addresses: readonly string[],
    at: { height: number; timeMs: number },
  ): Promise<{ state: ExchangeState; failures: WalletReadFailure[] }> {
    const wallets: WalletStateRecord[] = [];
    const failures: WalletReadFailure[] = [];
    const queue = [...new Set(addresses.map((a) => a.toLowerCase()))];
    const worker = async () => {
      for (let address = queue.shift(); address !== undefined; address = queue.shift()) {
        try {
          wallets.push(await this.wallet(address));
        } catch (error) {
          failures.push({ address, error: (error as Error).message });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.concurrency) }, worker));
    wallets.sort((a, b) => a.address.localeCompare(b.address));
    return { state: { height: at.height, timeMs: at.timeMs, hypePx: await this.hypePx(), wallets }, failures };
  }

  private async wallet(address: string): Promise<WalletStateRecord> {
    const [perpRaw, spotRaw] = await Promise.all([
      this.info.request({ type: 'clearinghouseState', user: address }),
      this.info.request({ type: 'spotClearinghouseState', user: address }),
    ]);
    const perp = parseClearinghouseState(perpRaw, { stream: `clearinghouseState ${address}` });
    if (!perp.ok) throw new Error(formatIssue(perp.error));
    const spot = parseSpotClearinghouseState(spotRaw, { stream: `spotClearinghouseState ${address}` });
    if (!spot.ok) throw new Error(formatIssue(spot.error));
    return walletStateFromClearinghouse(address, perp.value, spot.value);
  }

  private async hypePx(): Promise<string | null> {
    const mids = (await this.info.request({ type: 'allMids' }).catch(() => null)) as Record<string, unknown> | null;
    const hype = mids?.HYPE;
    return typeof hype === 'string' && /^\d+(\.\d+)?$/.test(hype) ? hype : null;
  }
}
