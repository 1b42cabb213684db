import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { HOLDER_FIELDS, HOLDERS_MAX_LIMIT, HOLDERS_MAX_OFFSET, type HolderField } from '#market';
import { PageLimit, PageOffset } from '../http/query-fields.js';

export class HoldersQueryDto {
  @PageOffset(HOLDERS_MAX_OFFSET, 'Holders to skip')
  offset?: number;

  @PageLimit(HOLDERS_MAX_LIMIT, 'Holders per page')
  limit?: number;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc', description: 'Direction of orderBy' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({
    enum: HOLDER_FIELDS,
    default: 'totalAmount',
    description: 'The field the page is ordered by (ties by address ascending)',
  })
  @IsOptional()
  @IsIn(HOLDER_FIELDS)
  orderBy?: HolderField;

  @ApiPropertyOptional({
    enum: HOLDER_FIELDS,
    default: 'totalAmount',
    description: 'The field that decides rank, in rankOrder (ties by address ascending)',
  })
  @IsOptional()
  @IsIn(HOLDER_FIELDS)
  rankBy?: HolderField;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc', description: 'desc: rank 1 has the most rankBy' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  rankOrder?: 'asc' | 'desc';
}

export class ClosestLiqDto {
  @ApiProperty({ type: String, nullable: true }) coin: string | null;
  @ApiProperty({ type: Number, nullable: true, description: '0 at entry, 1 at the liquidation price' }) progress: number | null;
}

export class HolderWalletDto {
  @ApiProperty({ type: String, nullable: true }) xUserId: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true }) emoji: string | null;
  @ApiProperty() verified: boolean;
  @ApiProperty({ type: [Number], description: '[size cohort id, pnl cohort id]' }) segments: number[];
  @ApiProperty() address: string;
  @ApiProperty() favoriteCount: number;
  @ApiProperty() totalEquity: number;
  @ApiProperty({ format: 'date-time' }) earliestActivityAt: string;
  @ApiProperty() perpPnl: number;
  @ApiProperty() perpEquity: number;
  @ApiProperty({ type: Number, nullable: true }) exposureRatio: number | null;
  @ApiProperty({ type: Number, nullable: true }) perpBias: number | null;
  @ApiProperty() openValue: number;
  @ApiProperty() sumUpnl: number;
  @ApiProperty({ type: Object, nullable: true, description: 'Vaults are not modelled: null' }) vault: null;
  @ApiProperty({ type: ClosestLiqDto }) closestLiq: ClosestLiqDto;
  @ApiProperty({ type: String, nullable: true, description: 'Always null' }) mid: null;
  @ApiProperty({ type: String, nullable: true, description: "The service's own id of the wallet: none, null" }) tidewatchId: null;
}

export class HolderHistoryDto {
  @ApiProperty({ description: 'The row: `<address>:<createdAt in epoch ms>`' }) id: string;
  @ApiProperty() address: string;
  @ApiProperty() spotAmount: number;
  @ApiProperty({ description: "At that update's HYPE price" }) spotAmountUsd: number;
  @ApiProperty() stakedAmount: number;
  @ApiProperty() stakedAmountUsd: number;
  @ApiProperty() totalAmount: number;
  @ApiProperty() totalAmountUsd: number;
  @ApiProperty({ format: 'date-time', description: 'The state update the balance was recorded at' }) createdAt: string;
}

export class HolderHistoryPairDto {
  @ApiProperty({
    type: HolderHistoryDto,
    nullable: true,
    description: 'Balance at the newest state update at or before 24 hours before the latest; null without one',
  })
  '24h': HolderHistoryDto | null;
  @ApiProperty({ type: HolderHistoryDto, nullable: true, description: 'As 24h, 7 days before' }) '7d': HolderHistoryDto | null;
}

export class HolderEntryDto {
  @ApiProperty() address: string;
  @ApiProperty({ description: 'HYPE on the spot account' }) spotAmount: number;
  @ApiProperty({ description: "At the HYPE price of the wallet's latest state update" }) spotAmountUsd: number;
  @ApiProperty({ description: 'Staked HYPE' }) stakedAmount: number;
  @ApiProperty() stakedAmountUsd: number;
  @ApiProperty({ description: 'spotAmount + stakedAmount' }) totalAmount: number;
  @ApiProperty() totalAmountUsd: number;
  @ApiProperty({ format: 'date-time' }) earliestActivityAt: string;
  @ApiProperty({ description: 'Perp account value (perp equity, USD)' }) accountValue: number;
  @ApiProperty({ description: 'Position by rankBy in rankOrder, 1-based, ties by address' }) rank: number;
  @ApiProperty({ description: 'totalAmount / HYPE_CIRCULATING_SUPPLY * 100, 8 decimal places' }) percentOfCirculatingSupply: number;
  @ApiProperty({ type: HolderWalletDto }) wallet: HolderWalletDto;
  @ApiProperty({ type: HolderHistoryPairDto }) history: HolderHistoryPairDto;
}

export class HoldersResponseDto {
  @ApiProperty({ type: [HolderEntryDto] }) items: HolderEntryDto[];
  @ApiProperty({ description: 'Wallets holding HYPE (spot plus staked above 0)' }) totalCount: number;
}
