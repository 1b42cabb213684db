import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime, ReadVersionsRepository } from '#database';
import { InvalidInputError, NotFoundError } from '#errors';
import { walletProfile } from '../wallets/wallet-profile.js';
import type { WalletProfile } from '../wallets/wallets.types.js';
import { type FavoriteRecord, FavoritesQueries } from './favorites.queries.js';

/** Favourites one consumer can keep: the list is returned whole, so it stays bounded (as a rule's 1,000 addresses). */
export const FAVORITES_MAX = 1000;

const ADDRESS = /^0x[0-9a-f]{40}$/i;

/** A consumer's favourite account as the routes give it. */
export interface Favorite {
  address: string;
  /** When the consumer first added it (ISO); adding it again keeps this time. */
  createdAt: string;
  wallet: WalletProfile;
}

const favorite = (r: FavoriteRecord): Favorite => ({
  address: r.wallet.address,
  createdAt: isoTime(r.createdAt),
  wallet: walletProfile(r.wallet),
});

/** A 0x address of 40 hex digits in lower case (as stored); anything else is an InvalidInputError naming `address`. */
function walletAddress(address: string): string {
  if (!ADDRESS.test(address)) throw new InvalidInputError('address', 'address must be 0x followed by 40 hex digits');
  return address.toLowerCase();
}

/**
 * Each consumer's favourite accounts. A favourite names a wallet the service knows (an unknown one is a
 * NotFoundError: its profile could not be shown, and its count could not be kept); adding and removing
 * are idempotent. Each change moves the wallet's `favoriteCount` in the same transaction, so every
 * wallet profile shows how many consumers favour it. A consumer only ever sees and changes its own.
 */
@Injectable()
export class FavoritesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: FavoritesQueries,
    private readonly readVersions: ReadVersionsRepository,
  ) {}

  /** Newest first. */
  async list(consumerId: number): Promise<Favorite[]> {
    return (await this.queries.list(this.dataSource, consumerId)).map(favorite);
  }

  /** Adds `address` (any case) unless it is a favourite already; either way returns the favourite. */
  async add(consumerId: number, address: string): Promise<Favorite> {
    const wallet = walletAddress(address);
    const added = await this.dataSource.transaction(async (q) => {
      await this.queries.lockConsumer(q, consumerId);
      if (!(await this.queries.walletExists(q, wallet))) throw new NotFoundError(`Unknown wallet: ${wallet}`);
      if (!(await this.queries.isFavorite(q, consumerId, wallet)) && (await this.queries.count(q, consumerId)) >= FAVORITES_MAX) {
        throw new InvalidInputError('address', `a consumer keeps at most ${FAVORITES_MAX} favourite accounts: remove one first`);
      }
      if (await this.queries.insert(q, consumerId, wallet)) await this.readVersions.bump(q, 'favorites');
      return this.queries.one(q, consumerId, wallet);
    });
    return favorite(added!);
  }

  /** Removes `address` (any case) if it is a favourite; removing one that is not changes nothing. */
  async remove(consumerId: number, address: string): Promise<void> {
    const wallet = walletAddress(address);
    await this.dataSource.transaction(async (q) => {
      await this.queries.lockConsumer(q, consumerId);
      if (await this.queries.delete(q, consumerId, wallet)) await this.readVersions.bump(q, 'favorites');
    });
  }
}
