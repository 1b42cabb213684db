import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InfoStateSource, type WalletReadFailure } from '#exchange';
import { KnownWalletsRepository } from './known-wallets.repository.js';
import { MarketStateWriter, type StateUpdateResult } from './market-state.writer.js';

export interface InfoStateUpdate {
  result: StateUpdateResult | null;
  failures: WalletReadFailure[];
}

/**
 * A state update for the `node` and `hyperliquid` feeds: the known wallets' clearinghouse states read
 * from HL_INFO_URL. With a node, the state belongs to the newest block the feed has stored; the public
 * API has no block numbers, so its updates are numbered by their exchange time in ms (`heightFromTime`).
 */
@Injectable()
export class InfoStateUpdates {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: MarketStateWriter,
    private readonly known: KnownWalletsRepository,
  ) {}

  async run(
    source: InfoStateSource,
    options: { heightFromTime: boolean; nowMs: number; addresses?: readonly string[] },
  ): Promise<InfoStateUpdate> {
    const at = options.heightFromTime ? { height: options.nowMs, timeMs: options.nowMs } : await this.known.latestBlock(this.dataSource);
    if (!at) return { result: null, failures: [] };
    const addresses = [...new Set([...(options.addresses ?? []), ...(await this.known.addresses(this.dataSource))])];
    if (addresses.length === 0) return { result: null, failures: [] };
    const { state, failures } = await source.read(addresses, at);
    return { result: await this.writer.apply(state), failures };
  }
}
