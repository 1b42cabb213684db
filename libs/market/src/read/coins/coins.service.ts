import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotFoundError } from '#errors';
import { CoinsQueries } from './coins.queries.js';

/** Printable text of a plausible length: anything else cannot be a market's name. */
const COIN_TEXT = /^[^\p{Cc}]{1,64}$/u;

/** Coins in paths are case-insensitive (`btc` is `BTC`, `XYZ:tsla` is `xyz:TSLA`); a market never seen is a 404. */
@Injectable()
export class CoinsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: CoinsQueries,
  ) {}

  /** The stored spelling of `coin`; a NotFoundError naming it when no fill or position has that market. */
  async resolve(coin: string): Promise<string> {
    // No market is named with control characters (Postgres text cannot even hold a NUL) or at this length.
    const known = COIN_TEXT.test(coin) ? await this.queries.canonical(this.dataSource, coin) : null;
    if (known === null) throw new NotFoundError(`Unknown coin: ${coin}`);
    return known;
  }
}
