import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsOptional, Matches } from 'class-validator';
import { NextCursor, PageLimit, PlainIntegerId, QueryCoin, QueryTime } from '../http/query-fields.js';

const WALLET_ADDRESS = /^0x[0-9a-f]{40}$/i;

/** `address=a&address=b` and `address=a,b` (and both mixed) give one list. */
const toAddressList = ({ value }: { value: unknown }): unknown =>
  (Array.isArray(value) ? value : [value]).flatMap((v) => (typeof v === 'string' ? v.split(',').map((a) => a.trim()) : [v]));

/** Only the words `true` and `false` are booleans; anything else stays as sent and fails @IsBoolean. */
const toBoolean = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);

export class PositionsQueryDto {
  @PageLimit(500, 'Positions per page')
  limit?: number;

  @QueryCoin('Market, any case (`btc` is `BTC`); omitted means all markets; an unknown market is a 404')
  coin?: string;

  @NextCursor(
    "The previous page's `nextCursor`. It continues the same window: send the same `start` and `end` as the first page (or none, and the first page's window is kept); an altered cursor is a 400",
  )
  nextCursor?: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Wallet addresses (0x and 40 hex digits, any case), at most 100: `address=0xa...&address=0xb...` or `address=0xa...,0xb...`',
    example: '0x0000000000000000000000000000000000000001,0x0000000000000000000000000000000000000002',
  })
  @IsOptional()
  @Transform(toAddressList)
  @ArrayMaxSize(100, { message: 'address must name at most 100 wallets' })
  @Matches(WALLET_ADDRESS, { each: true, message: 'each address must be 0x followed by 40 hex digits' })
  address?: string[];

  @QueryTime('start', 'Window start, ISO 8601 UTC (a time without a zone is UTC); default `end` minus 24 hours')
  start?: string;

  @QueryTime('end', 'Window end, ISO 8601 UTC (a time without a zone is UTC); default now; must not be before `start`')
  end?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: '`true`: only open positions (no `closeTime`); `false`: only closed ones; omitted: both',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'open must be true or false' })
  open?: boolean;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 16,
    description: 'Cohort id: positions of the wallets in that cohort now (by size or by PnL, as the cohort is); another integer is a 404',
  })
  @IsOptional()
  @PlainIntegerId()
  segmentId?: number;
}

export class PositionDto {
  @ApiProperty({ description: 'Stable id of the position record' }) id: number;
  @ApiProperty({ example: '0x0000000000000000000000000000000000000001' }) address: string;
  @ApiProperty({ example: 'BTC' }) coin: string;
  @ApiProperty({ example: 'main', description: '`main` for the main venue, else the HIP-3 exchange prefix (`xyz` of `xyz:TSLA`)' })
  dex: string;
  @ApiProperty({ enum: ['long', 'short'] }) side: 'long' | 'short';
  @ApiProperty({ description: 'Absolute size in coins' }) size: number;
  @ApiProperty({ description: 'Position value, USD' }) value: number;
  @ApiProperty() entryPrice: number;
  @ApiProperty() unrealizedPnl: number;
  @ApiProperty({ description: 'Funding since open, received-positive, USD' }) funding: number;
  @ApiProperty({ type: Number, nullable: true }) liquidationPrice: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'How far the mark has moved from entry toward the liquidation price: 0 to 1' })
  liquidationProgress: number | null;
  @ApiProperty({ example: 'cross' }) leverageType: string;
  @ApiProperty() leverage: number;
  @ApiProperty() marginUsed: number;
  @ApiProperty({ format: 'date-time' }) openTime: string;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: "The actual close time, also for a window earlier in the position's life; null while open",
  })
  closeTime: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the record was stored' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'The state update that last changed the record' }) updatedAt: string;
}

export class PositionsResponseDto {
  @ApiProperty({ type: [PositionDto] }) positions: PositionDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Opaque; null on the last page' }) nextCursor: string | null;
}

export class OpenPositionsHistoryQueryDto {
  @QueryTime('start', 'Oldest update time to include, ISO 8601 UTC, inclusive; omitted: from the first update')
  start?: string;

  @QueryTime('end', 'Newest update time to include, ISO 8601 UTC, inclusive; omitted: up to the latest update')
  end?: string;

  @PageLimit(500, 'Rows at most (the latest, then one per 2 hours)')
  limit?: number;
}

export class OpenPositionsHistoryMetricsDto {
  @ApiProperty({ example: ['coin', 'timestamp', 'positionCount', 'positionCountLong', 'totalPositionValue', 'totalPositionValueLong'] })
  columns: string[];

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
    description:
      'Rows in column order, newest first: coin, update time (ISO), open positions, long ones, their value and the long value (USD)',
    example: [['BTC', '2026-03-01T10:15:00.000Z', 120, 70, 1250000.5, 800000]],
  })
  data: Array<[string, string, number, number, number, number]>;
}

export class OpenPositionsHistoryResponseDto {
  @ApiProperty({ example: 'BTC' }) coin: string;
  @ApiProperty({ type: OpenPositionsHistoryMetricsDto }) metrics: OpenPositionsHistoryMetricsDto;
}
