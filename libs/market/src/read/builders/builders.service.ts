import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BuilderTimeframe } from './builder-timeframes.js';
import { BuildersQueries } from './builders.queries.js';
import type { BuilderActivityPoint, BuilderBiggestDay, BuilderCoinVolume, BuilderRow, BuilderTotals, BuilderUserVolumeGroup } from './builders.types.js';

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
}
