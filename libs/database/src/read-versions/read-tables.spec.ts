import { describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { domainsOf, ReadsTables, tablesReadBy } from './read-tables.js';

@Injectable()
@ReadsTables('market_prices', 'positions')
class CoinLookup {}

@Injectable()
@ReadsTables('fills')
class FillsRead {}

@Injectable()
class FillsPage {
  constructor(
    readonly dataSource: DataSource,
    readonly fills: FillsRead,
    readonly coins: CoinLookup,
  ) {}
}

@Injectable()
class Nothing {
  constructor(readonly dataSource: DataSource) {}
}

describe('the tables a provider reads', () => {
  it('are its own and those of every provider it is built with, each once', () => {
    expect([...tablesReadBy(FillsPage)].sort()).toEqual(['fills', 'market_prices', 'positions']);
    expect([...tablesReadBy(CoinLookup)].sort()).toEqual(['market_prices', 'positions']);
    expect(tablesReadBy(Nothing).size).toBe(0);
  });

  it('give their domains once each, in one order whatever the tables', () => {
    expect(domainsOf(tablesReadBy(FillsPage))).toEqual(['facts', 'state']);
    expect(domainsOf(['wallet_favorite_counts', 'wallets', 'closed_trades', 'fills'])).toEqual([
      'facts',
      'projections',
      'state',
      'favorites',
    ]);
    expect(domainsOf([])).toEqual([]);
  });
});
