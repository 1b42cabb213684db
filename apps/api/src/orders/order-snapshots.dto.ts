import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ORDER_SNAPSHOTS_DEFAULT_LIMIT, ORDER_SNAPSHOTS_MAX_LIMIT, ORDER_TYPES, type OrderType } from '#market';
import { NextCursor, PageLimit, PlainIntegerId, QueryCoin, QueryTime } from '../http/query-fields.js';

const ADDRESS = /^0x[0-9a-f]{40}$/i;

export class OrderSnapshotQueryDto {
  @PageLimit(ORDER_SNAPSHOTS_MAX_LIMIT, 'Orders per page', ORDER_SNAPSHOTS_DEFAULT_LIMIT)
  limit?: number;

  @NextCursor(
    'The `nextCursor` of the previous page (opaque; an altered one is a 400). It continues the snapshot of its first page, also on `/latest` ' +
      'after a newer snapshot was taken; on `/{snapshotTime}`, a cursor of another snapshot is a 400. Send the same filters as the first page.',
  )
  nextCursor?: string;

  @QueryCoin('Market, any case (`btc` is `BTC`); omitted: all markets. A market never seen is a 404.')
  coin?: string;

  @ApiPropertyOptional({
    example: '0x5ef843ccf26810073ee689a954f6d05f5b48fccb',
    description: "The order's wallet (0x and 40 hex digits, any case)",
  })
  @IsOptional()
  @IsString()
  @Matches(ADDRESS, { message: 'address must be a 0x address of 40 hex digits' })
  address?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'One order id (plain digits)' })
  @IsOptional()
  // An oid beyond 2^53 could not be told apart from its neighbours as a JSON number.
  @Max(Number.MAX_SAFE_INTEGER, { message: `oid must not be greater than ${Number.MAX_SAFE_INTEGER}` })
  @Min(0, { message: 'oid must be a non-negative integer' })
  @PlainIntegerId()
  oid?: number;

  @QueryTime('start', "Orders created at or after this time (the order's `timestamp`), ISO 8601 (a time without a zone is UTC)")
  start?: string;

  @QueryTime('end', "Orders created at or before this time (the order's `timestamp`), ISO 8601; must not be before `start`")
  end?: string;

  @ApiPropertyOptional({ enum: ORDER_TYPES, description: 'Omitted: all order types' })
  @IsOptional()
  @IsIn(ORDER_TYPES)
  orderType?: OrderType;
}

export class SnapshotTimeParamsDto {
  @ApiProperty({
    format: 'date-time',
    example: '2026-03-02T10:05:00.000Z',
    description:
      'ISO 8601 (a time without a zone is UTC) on a 5-minute boundary, within the last 30 days (inclusive) and not in the future; ' +
      'each rule broken is a 400 naming snapshotTime. A valid time at which no snapshot was taken is a 404.',
  })
  // Any text a time could be is far shorter; the service's parser checks the rest.
  @MaxLength(40, { message: 'snapshotTime must be at most 40 characters' })
  @IsString()
  snapshotTime: string;
}

export class OpenOrderDto {
  @ApiProperty({
    type: 'integer',
    description: 'Block of this version of the order: its placement, or the last fill or status that changed it',
  })
  height: number;
  @ApiProperty({ description: 'Lower-cased' }) address: string;
  @ApiProperty({ type: 'integer' }) oid: number;
  @ApiProperty({ example: 'BTC' }) coin: string;
  @ApiProperty({ enum: ['A', 'B'], description: 'A = ask/sell, B = bid/buy' }) side: 'A' | 'B';
  @ApiProperty() limitPx: number;
  @ApiProperty({ description: 'Size left at the snapshot (after fills)' }) sz: number;
  @ApiProperty({ description: 'Size when placed' }) origSz: number;
  @ApiProperty({ format: 'date-time', description: 'When the order was created' }) timestamp: string;
  @ApiProperty({ example: 'N/A', description: '`N/A` when not a trigger order, else e.g. `Price above 170.0`' }) triggerCondition: string;
  @ApiProperty() isTrigger: boolean;
  @ApiProperty({ description: '0 when not a trigger order' }) triggerPx: number;
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description: 'Attached orders (e.g. take profit / stop loss) as the exchange gave them',
  })
  children: unknown[];
  @ApiProperty() isPositionTpsl: boolean;
  @ApiProperty() reduceOnly: boolean;
  @ApiProperty({ enum: ORDER_TYPES }) orderType: string;
  @ApiProperty({ example: 'Gtc', description: "'' when the exchange gave none" }) tif: string;
  @ApiProperty({ description: "'' when none" }) cloid: string;
  @ApiProperty({ enum: ['open'] }) status: 'open';
  @ApiProperty({ description: "The builder's address; '' when none" }) builder: string;
  @ApiProperty({
    description: "The builder fee as the exchange's order gives it, in tenths of a basis point (10 = 0.01 % of notional); 0 when none",
  })
  builderFee: number;
  @ApiProperty({ description: 'A trigger order still waiting for its trigger (a triggered order leaves the book)' }) untriggered: boolean;
  @ApiProperty({ format: 'date-time', description: 'The snapshot that captured the order' }) snapshotTs: string;
}

export class OrderSnapshotPageDto {
  @ApiProperty({ type: [OpenOrderDto], description: 'By address, then oid, ascending' }) orders: OpenOrderDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Opaque; send back as query nextCursor for the next page; null on the last page',
  })
  nextCursor: string | null;
}
