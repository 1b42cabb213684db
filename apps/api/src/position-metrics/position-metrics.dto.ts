import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { COIN_SERIES_COLUMNS, POSITION_METRICS_MAX_LIMIT, POSITION_RECENCY_TIMEFRAMES, type PositionRecencyTimeframe } from '#market';
import { SegmentDto } from '../segments/segments.dto.js';
import { NextCursor, PageLimit, PlainIntegerId, QueryTime } from '../http/query-fields.js';
import { CoinParamsDto } from '../http/path-params.js';

const TIME_RULE = 'ISO 8601; a date-time without an offset is read as UTC; inclusive bound on the snapshot time';
const TIMEFRAME_RULE =
  "Count only positions opened within this window before each snapshot's own time (`24h`: opened in the 24 hours before it, bound included); `all`: every open position";

export class CohortMetricsParamsDto extends CoinParamsDto {
  @ApiProperty({ type: Number, minimum: 1, maximum: 16, description: 'Cohort id; another integer is a 404, a non-integer a 400' })
  @PlainIntegerId()
  segment: number;
}

export class PositionRecencyQueryDto {
  @ApiPropertyOptional({ enum: POSITION_RECENCY_TIMEFRAMES, default: 'all', description: TIMEFRAME_RULE })
  @IsOptional()
  @IsIn(POSITION_RECENCY_TIMEFRAMES)
  positionRecencyTimeframe?: PositionRecencyTimeframe;
}

export class CohortMetricsQueryDto extends PositionRecencyQueryDto {
  @QueryTime('start', `${TIME_RULE}; omitted: from the first snapshot`)
  start?: string;

  @QueryTime('end', `${TIME_RULE}; omitted: up to the latest snapshot; before \`start\` is a 400`)
  end?: string;

  @PageLimit(POSITION_METRICS_MAX_LIMIT, 'Snapshot rows per page')
  limit?: number;

  @NextCursor()
  nextCursor?: string;
}

export class MarketMetricsQueryDto {
  // The contract types `limit` as a string: a numeric string, read as an integer.
  @ApiPropertyOptional({
    type: String,
    pattern: '^[0-9]+$',
    default: String(POSITION_METRICS_MAX_LIMIT),
    description: `Snapshots per page, a numeric string from 1 to ${POSITION_METRICS_MAX_LIMIT}`,
  })
  @IsOptional()
  @Type(() => Number)
  // Checked bottom-up, first failure only: a non-number is reported as such, not as out of range.
  @Max(POSITION_METRICS_MAX_LIMIT)
  @Min(1)
  @IsInt()
  limit?: number;

  @NextCursor()
  nextCursor?: string;

  @QueryTime('start', `${TIME_RULE}; omitted: from the first snapshot`)
  start?: string;

  @QueryTime('end', `${TIME_RULE}; omitted: now; before \`start\` is a 400`)
  end?: string;
}

export class CohortPositionMetricDto {
  @ApiProperty({ format: 'date-time', description: 'Exchange time of the state update the snapshot was taken at' }) createdAt: string;
  @ApiProperty({ example: 'BTC', description: 'The stored spelling of the coin' }) coin: string;
  @ApiProperty({ minimum: 1, maximum: 16 }) segmentId: number;
  @ApiProperty({ description: 'Open positions of the cohort in the coin (0 when it held none)' }) positionCount: number;
  @ApiProperty() positionCountLong: number;
  @ApiProperty({ description: 'USD' }) totalPositionValue: number;
  @ApiProperty({ description: 'USD' }) totalPositionValueLong: number;
  @ApiProperty({ description: 'Funding since open, summed (USD)' }) totalFunding: number;
  @ApiProperty({ description: 'USD' }) totalUnrealizedPnl: number;
  @ApiProperty({ description: 'Absolute size in coin units' }) totalPositionSize: number;
  @ApiProperty() totalPositionSizeLong: number;
}

export class CohortMetricsPageDto {
  @ApiProperty({ type: [CohortPositionMetricDto], description: 'One row per exchange state update, newest first' })
  metrics: CohortPositionMetricDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Opaque; null on the last page' }) nextCursor: string | null;
}

export class CoinSeriesTableDto {
  @ApiProperty({ enum: COIN_SERIES_COLUMNS, isArray: true, example: COIN_SERIES_COLUMNS }) columns: string[];
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: {} },
    description:
      'Rows newest first, values in `columns` order. `bias` is the long share by value, totalPositionValueLong / totalPositionValue, ' +
      'from 0 to 1, null when the cohort held nothing; `timestamp` is the update time (ISO 8601)',
    example: [[12, 7, 1520300.5, 990000.25, 0.651185, '2026-11-13T08:00:00.000Z']],
  })
  data: Array<Array<number | string | null>>;
}

export class CoinCohortSeriesEntryDto {
  @ApiProperty({ type: SegmentDto }) segment: SegmentDto;
  @ApiProperty({ type: CoinSeriesTableDto }) metrics: CoinSeriesTableDto;
}

export class CoinCohortSeriesDto {
  @ApiProperty({ example: 'BTC', description: 'The stored spelling of the coin' }) coin: string;
  @ApiProperty({ type: [CoinCohortSeriesEntryDto], description: 'One entry per cohort, in the cohort table order' })
  data: CoinCohortSeriesEntryDto[];
}

export class MarketMetricDto {
  @ApiProperty() id: number;
  @ApiProperty({ format: 'date-time', description: 'Exchange time of the state update' }) createdAt: string;
  @ApiProperty({ description: 'Open positions on every market' }) count: number;
  @ApiProperty() countLong: number;
  @ApiProperty() countShort: number;
  @ApiProperty({ description: 'Value of the open positions (USD)' }) openInterest: number;
  @ApiProperty() openInterestLong: number;
  @ApiProperty() openInterestShort: number;
  @ApiProperty({ description: 'Perp equity of every known wallet (USD)' }) perpEquity: number;
  @ApiProperty({ description: 'Open positions with a positive unrealized PnL' }) countInProfit: number;
}

export class MarketMetricsPageDto {
  @ApiProperty({ type: [MarketMetricDto], description: 'Newest first' }) metrics: MarketMetricDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Opaque; null on the last page' }) nextCursor: string | null;
}
