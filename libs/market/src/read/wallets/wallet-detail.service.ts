import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidInputError, NotFoundError } from '#errors';
import { type Cohort, COHORTS } from '../../cohorts/cohorts.js';
import { FavoritesQueries } from '../favorites/favorites.queries.js';
import { PositionsService } from '../positions/positions.service.js';
import type { PositionRecord, PositionsPage } from '../positions/positions.types.js';
import { walletProfile } from './wallet-profile.js';
import { WalletsQueries } from './wallets.queries.js';
import type { WalletDetail } from './wallets.types.js';

const ADDRESS = /^0x[0-9a-f]{40}$/i;

/** Every time there is: the open positions of a wallet whatever their open time. */
const ALL_TIME = { start: '1970-01-01T00:00:00.000Z', end: '9999-12-31T23:59:59.999Z' };

const cohort = (id: number): Cohort => COHORTS.find((c) => c.id === id)!;

@Injectable()
export class WalletDetailService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly wallets: WalletsQueries,
    private readonly favorites: FavoritesQueries,
    private readonly positions: PositionsService,
  ) {}

  /**
   * One wallet for the account routes: its profile, its size and pnl cohorts, its open positions (the
   * positions route's records, newest open time first) and whether `consumerId` favours it. A malformed
   * address is an InvalidInputError, a wallet the service has not seen a NotFoundError.
   */
  async detail(address: string, consumerId: number): Promise<WalletDetail> {
    if (!ADDRESS.test(address)) throw new InvalidInputError('address', 'address must be 0x followed by 40 hex digits');
    const wallet = address.toLowerCase();
    const record = await this.wallets.byAddress(this.dataSource, wallet);
    if (!record) throw new NotFoundError(`Unknown wallet: ${wallet}`);
    const [positions, isFavorite] = await Promise.all([
      this.openPositions(wallet),
      this.favorites.isFavorite(this.dataSource, consumerId, wallet),
    ]);
    return {
      wallet: walletProfile(record),
      segments: [cohort(record.sizeCohortId), cohort(record.pnlCohortId)],
      positions,
      isFavorite,
    };
  }

  /** Through the positions route's own service, so the records are the same; a wallet rarely fills more than one page. */
  private async openPositions(address: string): Promise<PositionRecord[]> {
    const all: PositionRecord[] = [];
    let nextCursor: string | undefined;
    do {
      const body = await this.positions.page({
        address: [address],
        open: true,
        ...(nextCursor === undefined ? ALL_TIME : {}),
        limit: 500,
        nextCursor,
      });
      // The route's body is JSON text already; a wallet's few open positions are read back from it.
      const page = JSON.parse(body.text) as PositionsPage;
      all.push(...page.positions);
      nextCursor = page.nextCursor ?? undefined;
    } while (nextCursor !== undefined);
    return all;
  }
}
