import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime } from '#database';
import { walletProfile } from '../wallets/wallet-profile.js';
import type { WalletProfile } from '../wallets/wallets.types.js';
import { type FavoriteRecord, FavoritesQueries } from './favorites.queries.js';

/** A consumer's favourite account as the routes give it. */
export interface Favorite {
  address: string;
  /** When the consumer first added it (ISO); adding it again keeps this time. */
  createdAt: string;
  wallet: WalletProfile;
}

export const toFavorite = (r: FavoriteRecord): Favorite => ({
  address: r.wallet.address,
  createdAt: isoTime(r.createdAt),
  wallet: walletProfile(r.wallet),
});

/**
 * Each consumer's favourite accounts, as they read them: a consumer only ever sees its own. They are
 * added and removed by FavoritesWriter (libs/market/src/favorites).
 */
@Injectable()
export class FavoritesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: FavoritesQueries,
  ) {}

  /** Newest first. */
  async list(consumerId: number): Promise<Favorite[]> {
    return (await this.queries.list(this.dataSource, consumerId)).map(toFavorite);
  }
}
