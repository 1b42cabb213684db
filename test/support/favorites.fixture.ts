import { expect } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { MarketStateWriter } from '#market';
import { address, exchangeState, positionState, startedWriter, walletState } from '#testing';
import { ApiHarness } from './api-harness.js';

// The account suites' data (favorites and account-routes e2e specs): three wallets over two state updates, and their profiles.

export const FAVORITES = '/api/favorites/accounts';
export const favorite = (wallet: string) => `${FAVORITES}/${wallet}`;
export const WALLET = (wallet: string) => `/api/wallets/${wallet}`;
export const T1 = Date.UTC(2026, 6, 1, 12, 0);
export const T2 = T1 + 15 * 60_000;
export const iso = (ms: number) => new Date(ms).toISOString();

// A: a Dolphin (20000 of perp equity) and Consistent Grinder (50000 PnL) with 5 spot HYPE at 40. At T1 it holds SOL and ETH;
// at T2 SOL is gone (closed) and BTC is new.
export const A = address(0xa1);
export const B = address(0xb2); // Fish (300), Exit Liquidity (-500), no position
export const C = address(0xc3); // Shrimp (100), Humble Earner (0), no position
export const UNKNOWN = address(0xdead);
/** Wallets only the cap test favours. */
export const MANY = Array.from({ length: 1001 }, (_, i) => address(0x10000 + i));

// Short 4 ETH from 50 at 55 (value 220), liquidation 60: progress (50 - 55) / (50 - 60) = 0.5. Long 2 BTC from 100 at 90, liquidation 50: 0.2.
const ETH = positionState('ETH', {
  szi: '-4',
  entryPx: '50',
  positionValue: '220',
  unrealizedPnl: '-20',
  liquidationPx: '60',
  fundingSinceOpen: '1.5',
});
const BTC = positionState('BTC', {
  szi: '2',
  entryPx: '100',
  positionValue: '180',
  unrealizedPnl: '-20',
  liquidationPx: '50',
  leverage: 10,
  marginUsed: '18',
});
const SOL = positionState('SOL', { szi: '10', entryPx: '20', positionValue: '200' });

async function seed(dataSource: DataSource): Promise<void> {
  const states = await startedWriter(dataSource, MarketStateWriter);
  const a = (positions: ReturnType<typeof positionState>[]) =>
    walletState(A, { perpEquity: '20000', allTimePnl: '50000', spotHype: '5', positions });
  await states.apply(exchangeState(1, T1, [a([SOL, ETH])]));
  await states.apply(
    exchangeState(2, T2, [
      a([ETH, BTC]),
      walletState(B, { perpEquity: '300', allTimePnl: '-500' }),
      walletState(C, { perpEquity: '100', allTimePnl: '0' }),
      ...MANY.map((m) => walletState(m)),
    ]),
  );
}

/** The wallet profiles, worked out by hand from the seed. */
export const profile = (wallet: string, favoriteCount: number) =>
  ({
    [A]: {
      xUserId: null,
      displayName: null,
      emoji: null,
      verified: false,
      segments: [2, 10],
      address: A,
      favoriteCount,
      totalEquity: 20200,
      earliestActivityAt: iso(T1),
      perpPnl: 50000,
      perpEquity: 20000,
      // (180 + 220) / 20000 and (180 - 220) / 20000.
      exposureRatio: 0.02,
      perpBias: -0.002,
      openValue: 400,
      sumUpnl: -40,
      vault: null,
      closestLiq: { coin: 'ETH', progress: 0.5 },
    },
    [B]: {
      xUserId: null,
      displayName: null,
      emoji: null,
      verified: false,
      segments: [1, 12],
      address: B,
      favoriteCount,
      totalEquity: 300,
      earliestActivityAt: iso(T2),
      perpPnl: -500,
      perpEquity: 300,
      exposureRatio: null,
      perpBias: null,
      openValue: 0,
      sumUpnl: 0,
      vault: null,
      closestLiq: { coin: null, progress: null },
    },
    [C]: {
      xUserId: null,
      displayName: null,
      emoji: null,
      verified: false,
      segments: [16, 11],
      address: C,
      favoriteCount,
      totalEquity: 100,
      earliestActivityAt: iso(T2),
      perpPnl: 0,
      perpEquity: 100,
      exposureRatio: null,
      perpBias: null,
      openValue: 0,
      sumUpnl: 0,
      vault: null,
      closestLiq: { coin: null, progress: null },
    },
  })[wallet];

export const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});
export const ADDRESS_MESSAGE = 'address must be 0x followed by 40 hex digits';

export interface Consumer {
  consumerId: number;
  token: string;
}

/** The account suites' api: started on the seeded database, with two consumers. */
export async function startAccountApi(): Promise<{ api: ApiHarness; one: Consumer; two: Consumer }> {
  const api = await ApiHarness.start();
  const one = await api.createConsumer({ name: 'favorites-one' });
  const two = await api.createConsumer({ name: 'favorites-two' });
  const dataSource = await new DataSource(dataSourceOptions(api.config.DATABASE_URL)).initialize();
  try {
    await seed(dataSource);
  } finally {
    await dataSource.destroy();
  }
  return { api, one, two };
}

/**
 * PUT and DELETE of a favourite (with a token or without), consumer's list, and a wallet's favourite count
 * as consumer `one` reads it, on the api of `current()`: the suites set theirs in beforeAll.
 */
export function favoriteRequests(current: () => { api: ApiHarness; one: Consumer }) {
  const put = (path: string, token?: string) => {
    const { api } = current();
    return token ? api.http.put(path).set('Authorization', `Bearer ${token}`) : api.http.put(path);
  };
  const del = (path: string, token?: string) => {
    const { api } = current();
    return token ? api.http.delete(path).set('Authorization', `Bearer ${token}`) : api.http.delete(path);
  };
  const list = async (token: string) => {
    const res = await current().api.get(FAVORITES, token);
    expect(res.status).toBe(200);
    return res.body.data as Array<{ address: string; createdAt: string; wallet: { favoriteCount: number } }>;
  };
  const countOf = async (wallet: string) => {
    const { api, one } = current();
    return (await api.get(`/api/external/wallets?address=${wallet}`, one.token)).body.items[0].favoriteCount;
  };
  return { put, del, list, countOf };
}
