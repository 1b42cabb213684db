import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidInputError } from '#errors';
import { COHORT_IDS } from '../../cohorts/cohorts.js';
import { walletProfile } from './wallet-profile.js';
import { WalletsQueries } from './wallets.queries.js';
import { WALLET_ORDER_FIELDS, type WalletsListRequest, type WalletsPage } from './wallets.types.js';

export const WALLETS_DEFAULT_LIMIT = 500;
export const WALLETS_MAX_LIMIT = 500;
/** More wallets than any exchange has, and well within what Postgres takes as an OFFSET. */
export const WALLETS_MAX_OFFSET = 10_000_000;
export const WALLETS_DEFAULT_ORDER_BY = 'totalEquity';

const ADDRESS = /^0x[0-9a-f]{40}$/i;

@Injectable()
export class WalletsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: WalletsQueries,
  ) {}

  /**
   * One offset page of wallet profiles with the number of wallets matching the filters. Sorted by
   * `orderBy` (default totalEquity) in `order` (default desc), then by address in the same direction,
   * so walking the offsets of one state update visits every wallet once; null values (perpBias,
   * exposureRatio, closestLiqProgress) come last in both directions. A wallet matches `segmentIds`
   * when its size or its pnl cohort is one of them. Bad values are InvalidInputErrors.
   */
  async list(request: WalletsListRequest = {}): Promise<WalletsPage> {
    const {
      offset = 0,
      limit = WALLETS_DEFAULT_LIMIT,
      order = 'desc',
      orderBy = WALLETS_DEFAULT_ORDER_BY,
      segmentIds: cohortIds,
      hasOpenPositions,
      address,
    } = request;
    if (!Number.isInteger(offset) || offset < 0 || offset > WALLETS_MAX_OFFSET) {
      throw new InvalidInputError('offset', `offset must be an integer from 0 to ${WALLETS_MAX_OFFSET}`);
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > WALLETS_MAX_LIMIT)
      throw new InvalidInputError('limit', `limit must be an integer from 1 to ${WALLETS_MAX_LIMIT}`);
    if (order !== 'asc' && order !== 'desc') throw new InvalidInputError('order', 'order must be asc or desc');
    if (!WALLET_ORDER_FIELDS.includes(orderBy))
      throw new InvalidInputError('orderBy', `orderBy must be one of ${WALLET_ORDER_FIELDS.join(', ')}`);
    if (cohortIds?.some((id) => !COHORT_IDS.includes(id)))
      throw new InvalidInputError('segmentIds', 'each segmentIds value must be a cohort id from 1 to 16');
    if (address !== undefined && !ADDRESS.test(address))
      throw new InvalidInputError('address', 'address must be 0x followed by 40 hex digits');

    const { totalCount, records } = await this.dataSource.transaction('REPEATABLE READ', (q) =>
      this.queries.page(q, {
        orderBy,
        descending: order === 'desc',
        offset,
        limit,
        cohortIds: cohortIds && [...new Set(cohortIds)],
        hasOpenPositions,
        // Addresses are stored in lower case.
        address: address?.toLowerCase(),
      }),
    );
    return { totalCount, items: records.map(walletProfile) };
  }
}
