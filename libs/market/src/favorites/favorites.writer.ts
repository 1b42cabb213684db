import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ReadVersionsRepository } from '#database';
import { InvalidInputError, NotFoundError } from '#errors';
import { FavoritesQueries } from '../read/favorites/favorites.queries.js';
import { type Favorite, toFavorite } from '../read/favorites/favorites.service.js';
import { FavoritesRepository } from './favorites.repository.js';

/** Favourites one consumer can keep: the list is returned whole, so it stays bounded (as a rule's 1,000 addresses). */
export const FAVORITES_MAX = 1000;

const ADDRESS = /^0x[0-9a-f]{40}$/i;

/** A 0x address of 40 hex digits in lower case (as stored); anything else is an InvalidInputError naming `address`. */
function walletAddress(address: string): string {
  if (!ADDRESS.test(address)) throw new InvalidInputError('address', 'address must be 0x followed by 40 hex digits');
  return address.toLowerCase();
}

/**
 * The writer of the `favorites` domain: adds and removes a consumer's favourite accounts. A favourite
 * names a wallet the service knows (an unknown one is a NotFoundError: its profile could not be shown);
 * adding and removing are idempotent. Each change moves the wallet's favourite count and bumps the domain
 * in its transaction, so every cached wallet profile shows the new count once it commits. A consumer only
 * ever changes its own.
 */
@Injectable()
export class FavoritesWriter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly favorites: FavoritesRepository,
    private readonly queries: FavoritesQueries,
    private readonly readVersions: ReadVersionsRepository,
  ) {}

  /** Adds `address` (any case) unless it is a favourite already; either way returns the favourite. */
  async add(consumerId: number, address: string): Promise<Favorite> {
    const wallet = walletAddress(address);
    const added = await this.dataSource.transaction(async (q) => {
      await this.favorites.lockConsumer(q, consumerId);
      if (!(await this.favorites.walletExists(q, wallet))) throw new NotFoundError(`Unknown wallet: ${wallet}`);
      if (!(await this.queries.isFavorite(q, consumerId, wallet)) && (await this.favorites.count(q, consumerId)) >= FAVORITES_MAX) {
        throw new InvalidInputError('address', `a consumer keeps at most ${FAVORITES_MAX} favourite accounts: remove one first`);
      }
      if (await this.favorites.insert(q, consumerId, wallet)) await this.readVersions.bump(q, 'favorites');
      return this.queries.one(q, consumerId, wallet);
    });
    return toFavorite(added!);
  }

  /** Removes `address` (any case) if it is a favourite; removing one that is not changes nothing. */
  async remove(consumerId: number, address: string): Promise<void> {
    const wallet = walletAddress(address);
    await this.dataSource.transaction(async (q) => {
      await this.favorites.lockConsumer(q, consumerId);
      if (await this.favorites.delete(q, consumerId, wallet)) await this.readVersions.bump(q, 'favorites');
    });
  }
}
