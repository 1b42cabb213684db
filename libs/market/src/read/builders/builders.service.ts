import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime, type SqlRunner } from '#database';
import { isSpotCoin } from '#exchange';
import { InvalidInputError, NotFoundError } from '#errors';
import { jsonNumber, jsonNumberOrNull } from '../json-number.js';
import { BUILDER_TIMEFRAMES, builderWindow, DAY_MS, type BuilderTimeframe } from './builder-timeframes.js';
import { BuildersQueries } from './builders.queries.js';
import type {
  BuilderActivityPoint,
  BuilderBiggestDay,
  BuilderCoinVolume,
  BuilderListEntry,
  BuilderProfile,
  BuilderRow,
  BuilderTotals,
  BuilderUserVolumeGroup,
  SeriesTable,
} from './builders.types.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The revenue milestones of a builder profile (USD), each a tenfold of the one before. */
export const BUILDER_REVENUE_MILESTONES: ReadonlyArray<{ revenue: string; label: string }> = [
  { revenue: '1000', label: '$1K' },
  { revenue: '10000', label: '$10K' },
  { revenue: '100000', label: '$100K' },
  { revenue: '1000000', label: '$1M' },
  { revenue: '10000000', label: '$10M' },
];

/** The profile's daily analytics series: whole UTC days ending with the day of the exchange "now". */
const ANALYTICS_DAYS = { '7d': 7, '30d': 30 } as const;

type AnalyticsTable = SeriesTable<[revenue: number, users: number, timestamp: string]>;

/**
 * What the builder routes read. Timeframes end at the exchange "now" (the newest projected fill), never
 * the wall clock; before any fill is projected every list is empty.
 */
@Injectable()
export class BuildersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: BuildersQueries,
  ) {}

  /** The exchange "now" of the aggregates, epoch ms; null before any fill was projected. */
  now(): Promise<number | null> {
    return this.queries.newestFillTime(this.dataSource);
  }

  /** The leaderboard of a timeframe, highest revenue first, with the previous period's figures. */
  async list(timeframe: BuilderTimeframe): Promise<BuilderRow[]> {
    const now = await this.now();
    return now === null ? [] : this.queries.rows(this.dataSource, timeframe, now);
  }

  /** All-time figures of one builder; null for a builder never seen. */
  totals(builder: string): Promise<BuilderTotals | null> {
    return this.queries.totals(this.dataSource, builder);
  }

  /** Hourly or daily points over [from, to), epoch ms, empty buckets included. */
  series(builder: string, bucket: 'hour' | 'day', from: number, to: number): Promise<BuilderActivityPoint[]> {
    return this.queries.series(this.dataSource, builder, bucket, from, to);
  }

  async coinVolumes(builder: string, timeframe: BuilderTimeframe): Promise<BuilderCoinVolume[]> {
    const now = await this.now();
    return now === null ? [] : this.queries.coinVolumes(this.dataSource, builder, timeframe, now);
  }

  async userVolumeGroups(builder: string, timeframe: BuilderTimeframe): Promise<BuilderUserVolumeGroup[]> {
    const now = await this.now();
    return now === null ? [] : this.queries.userVolumeGroups(this.dataSource, builder, timeframe, now);
  }

  biggestDay(builder: string): Promise<BuilderBiggestDay | null> {
    return this.queries.biggestDay(this.dataSource, builder);
  }

  /** Notional traded on the whole exchange in the whole hours [from, to), epoch ms. */
  exchangeVolume(from: number, to: number): Promise<string> {
    return this.queries.volume(this.dataSource, from, to);
  }

  /**
   * The route's builder rows for a timeframe (`24h`, `7d`, `30d`, `all`; another value is an
   * InvalidInputError naming `timeframe`): as `list`, highest revenue first, ties by address.
   */
  async leaderboard(timeframe: string): Promise<{ builders: BuilderListEntry[] }> {
    if (!(BUILDER_TIMEFRAMES as readonly string[]).includes(timeframe)) {
      throw new InvalidInputError('timeframe', `timeframe must be one of the following values: ${BUILDER_TIMEFRAMES.join(', ')}`);
    }
    const rows = await this.list(timeframe as BuilderTimeframe);
    return {
      builders: rows.map((r) => ({
        refCode: null,
        address: r.builder,
        revenue: jsonNumber(r.revenue),
        timeJoined: isoTime(r.firstFillTime),
        createdAt: isoTime(r.firstFillTime),
        usageFee: jsonNumberOrNull(r.usageFee),
        users: r.users,
        volume: jsonNumber(r.volume),
        revenuePrev: jsonNumberOrNull(r.revenuePrev),
        volumePrev: jsonNumberOrNull(r.volumePrev),
        usersPrev: r.usersPrev,
      })),
    };
  }

  /**
   * One builder's profile (any case; not an address: InvalidInputError naming `builder`; a builder
   * without a projected fill: NotFoundError), read in one repeatable-read transaction so every part is
   * of the same projected fills.
   */
  async profile(builderParam: string): Promise<BuilderProfile> {
    if (!ADDRESS.test(builderParam)) throw new InvalidInputError('builder', 'builder must be a 0x address of 40 hex digits');
    const builder = builderParam.toLowerCase();
    return this.dataSource.transaction('REPEATABLE READ', async (q) => {
      const now = await this.queries.newestFillTime(q);
      const totals = await this.queries.totals(q, builder);
      if (now === null || totals === null) throw new NotFoundError(`Unknown builder: ${builderParam}`);
      const day = builderWindow('24h', now);
      const biggest = (await this.queries.biggestDay(q, builder))!;
      const reached = await this.queries.revenueReached(
        q,
        builder,
        BUILDER_REVENUE_MILESTONES.map((m) => m.revenue),
      );
      const coins = {} as BuilderProfile['coinVolumeDistribution'];
      const users = {} as BuilderProfile['userVolumeDistribution'];
      for (const timeframe of BUILDER_TIMEFRAMES) {
        coins[timeframe] = {
          columns: ['coin', 'volume', 'numWallets', 'exchangeType'],
          data: (await this.queries.coinVolumes(q, builder, timeframe, now)).map((c) => [
            c.coin,
            jsonNumber(c.volume),
            c.wallets,
            isSpotCoin(c.coin) ? 'Spot' : 'Perp',
          ]),
        };
        // The API contract lists the groups from Rest up to Top 1%: rows in that order.
        const groups = (await this.queries.userVolumeGroups(q, builder, timeframe, now)).reverse();
        users[timeframe] = {
          columns: ['numWallets', 'volume', 'minVolume', 'maxVolume', 'percentileGroup'],
          data: groups.map((g) => [g.wallets, jsonNumber(g.volume), jsonNumber(g.minVolume), jsonNumberOrNull(g.maxVolume), g.group]),
        };
      }
      const dayEnd = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
      return {
        info: {
          address: builder,
          code: null,
          name: null,
          url: null,
          xUrl: null,
          xUserId: null,
          xUser: null,
          firstActivityAt: isoTime(totals.firstFillTime),
          revenue: jsonNumber(totals.revenue),
        },
        hyperliquidVolume24h: jsonNumber(await this.queries.volume(q, day.from!, day.to)),
        fee: jsonNumberOrNull(totals.usageFee),
        biggestDay: { revenue: jsonNumber(biggest.revenue), date: isoTime(biggest.date) },
        revenueMilestones: BUILDER_REVENUE_MILESTONES.map((m, i) => ({
          revenue: jsonNumber(m.revenue),
          label: m.label,
          done: reached[i]!.time !== null,
          date: reached[i]!.time === null ? null : isoTime(reached[i]!.time!),
        })),
        analytics: {
          '24h': await this.analytics(q, builder, 'hour', day.from!, day.to),
          '7d': await this.analytics(q, builder, 'day', dayEnd - ANALYTICS_DAYS['7d'] * DAY_MS, dayEnd),
          '30d': await this.analytics(q, builder, 'day', dayEnd - ANALYTICS_DAYS['30d'] * DAY_MS, dayEnd),
          all: await this.analytics(q, builder, 'day', totals.firstFillTime, dayEnd),
        },
        coinVolumeDistribution: coins,
        userVolumeDistribution: users,
      };
    });
  }

  /** Oldest first, one row per hour or UTC day (empty ones included). */
  private async analytics(q: SqlRunner, builder: string, bucket: 'hour' | 'day', from: number, to: number): Promise<AnalyticsTable> {
    const points = await this.queries.series(q, builder, bucket, from, to);
    return { columns: ['revenue', 'users', 'timestamp'], data: points.map((p) => [jsonNumber(p.revenue), p.users, isoTime(p.time)]) };
  }
}
