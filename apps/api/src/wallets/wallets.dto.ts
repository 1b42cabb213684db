import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import {
  COHORT_IDS,
  WALLET_ORDER_FIELDS,
  WALLETS_DEFAULT_ORDER_BY,
  WALLETS_MAX_LIMIT,
  WALLETS_MAX_OFFSET,
  type WalletOrderField,
} from '#market';
import { PageLimit, PageOffset } from '../http/query-fields.js';

const WALLET_ADDRESS = /^0x[0-9a-f]{40}$/i;

/** `segmentIds=4&segmentIds=5` and `segmentIds=4,5` (and both mixed) give one list; plain digits become numbers, anything else stays and fails. */
const toIdList = ({ value }: { value: unknown }): unknown =>
  (Array.isArray(value) ? value : [value]).flatMap((v) =>
    typeof v === 'string' ? v.split(',').map((id) => (/^[0-9]+$/.test(id.trim()) ? Number(id.trim()) : id)) : [v],
  );

/** Only the words `true` and `false` are booleans; anything else stays as sent and fails @IsBoolean. */
const toBoolean = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);

export const WALLETS_ORDER_RULE =
  'Sorted by `orderBy`, then by address in the same direction, so the offsets of one state update list every wallet once; ' +
  'wallets without a value (perpBias, exposureRatio, closestLiqProgress are null without an open position, positive perp equity or a ' +
  'liquidation price) come last in both directions.';

export class WalletsQueryDto {
  @PageOffset(WALLETS_MAX_OFFSET, 'Wallets to skip')
  offset?: number;

  @PageLimit(WALLETS_MAX_LIMIT, 'Wallets per page')
  limit?: number;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({ enum: WALLET_ORDER_FIELDS, default: WALLETS_DEFAULT_ORDER_BY, description: WALLETS_ORDER_RULE })
  @IsOptional()
  @IsIn(WALLET_ORDER_FIELDS)
  orderBy?: WalletOrderField;

  @ApiPropertyOptional({
    type: [Number],
    description:
      'Cohort ids (1 to 16): `segmentIds=4&segmentIds=5` or `segmentIds=4,5`. A wallet matches when its size cohort or its pnl cohort is one of them.',
    example: '4,9',
  })
  @IsOptional()
  @Transform(toIdList)
  @ArrayMaxSize(16, { message: 'segmentIds must name at most 16 cohorts' })
  @IsIn(COHORT_IDS, { each: true, message: 'each segmentIds value must be a cohort id from 1 to 16' })
  segmentIds?: number[];

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: '`true`: only wallets with an open position; `false`: only wallets without; omitted: both',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'hasOpenPositions must be true or false' })
  hasOpenPositions?: boolean;

  @ApiPropertyOptional({ example: '0x0000000000000000000000000000000000000001', description: 'One wallet: 0x and 40 hex digits, any case' })
  @IsOptional()
  @IsString()
  @Matches(WALLET_ADDRESS, { message: 'address must be 0x followed by 40 hex digits' })
  address?: string;
}

export class ClosestLiqDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'BTC',
    description: 'The open position nearest its liquidation price; null when no position has one',
  })
  coin: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Its liquidation progress, 0 (at entry or in profit) to 1 (at the liquidation price)',
  })
  progress: number | null;
}

export class WalletProfileDto {
  @ApiProperty({ type: String, nullable: true, description: 'Not tracked: null' }) xUserId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Not tracked: null' }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Not tracked: null' }) emoji: string | null;
  @ApiProperty({ description: 'Not tracked: false' }) verified: boolean;
  @ApiProperty({ type: [Number], example: [2, 10], description: 'Cohort ids: [size cohort, pnl cohort]' }) segments: number[];
  @ApiProperty({ example: '0x0000000000000000000000000000000000000001' }) address: string;
  @ApiProperty({ type: 'integer', description: 'Consumers that keep the wallet among their favourite accounts' }) favoriteCount: number;
  @ApiProperty({ description: 'Perp equity plus the USD value of spot and staked HYPE' }) totalEquity: number;
  @ApiProperty({ format: 'date-time', description: 'Its first stored fill, or the state update that first showed it if older' })
  earliestActivityAt: string;
  @ApiProperty({ description: 'All-time perp PnL, USD' }) perpPnl: number;
  @ApiProperty({ description: 'Perp account value, USD' }) perpEquity: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'openValue / perpEquity (8 decimals); null without an open position or positive perp equity',
  })
  exposureRatio: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: '(long value - short value) / perpEquity (8 decimals): the sign is the direction; null as exposureRatio',
  })
  perpBias: number | null;
  @ApiProperty({ description: 'USD value of the open positions' }) openValue: number;
  @ApiProperty({ description: "Sum of the open positions' unrealized PnL" }) sumUpnl: number;
  @ApiProperty({ type: Object, nullable: true, description: 'Vaults are not tracked: null' }) vault: null;
  @ApiProperty({ type: ClosestLiqDto }) closestLiq: ClosestLiqDto;
}

export class WalletsResponseDto {
  @ApiProperty({ type: 'integer', description: 'Wallets matching the filters' }) totalCount: number;
  @ApiProperty({ type: [WalletProfileDto], description: WALLETS_ORDER_RULE }) items: WalletProfileDto[];
}
