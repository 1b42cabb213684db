import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { LEADERBOARD_DEFAULT_LIMIT, LEADERBOARD_LIMITS, LEADERBOARD_MAX_OFFSET, PNL_FIELDS, type PnlField } from '#market';
import { PageOffset } from '../http/query-fields.js';

export class PnlLeaderboardQueryDto {
  @PageOffset(LEADERBOARD_MAX_OFFSET, 'Wallets to skip')
  offset?: number;

  @ApiPropertyOptional({ enum: LEADERBOARD_LIMITS, default: LEADERBOARD_DEFAULT_LIMIT, description: 'Wallets per page: 25, 50 or 100' })
  @IsOptional()
  @Type(() => Number)
  @IsIn(LEADERBOARD_LIMITS)
  limit?: number;

  @ApiProperty({ enum: ['asc', 'desc'], description: 'Direction of orderBy' })
  @IsIn(['asc', 'desc'])
  order: 'asc' | 'desc';

  @ApiProperty({ enum: PNL_FIELDS, description: 'The PnL the page is ordered by (ties by address ascending); sumPnl sums it' })
  @IsIn(PNL_FIELDS)
  orderBy: PnlField;

  @ApiProperty({ enum: PNL_FIELDS, description: 'The PnL that decides rank: 1 is the highest, ties by address ascending, whatever order' })
  @IsIn(PNL_FIELDS)
  rankBy: PnlField;
}

export class LeaderboardProfileDto {
  @ApiProperty({ type: String, nullable: true, description: 'Always null' }) mid: null;
  @ApiProperty({ type: String, nullable: true, description: "The service's own id of the wallet: none, null" }) tidewatchId: null;
  @ApiProperty({ type: String, nullable: true }) xUserId: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true }) emoji: string | null;
  @ApiProperty() verified: boolean;
  @ApiProperty({ type: [Number], description: '[size cohort id, pnl cohort id]' }) segments: number[];
  @ApiProperty() address: string;
  @ApiProperty() favoriteCount: number;
  @ApiProperty({ format: 'date-time' }) earliestActivityAt: string;
  @ApiProperty({ description: 'Perp equity plus HYPE spot and staked at the HYPE price (USD)' }) totalEquity: number;
  @ApiProperty({ description: 'All-time perp PnL (USD)' }) perpPnl: number;
  @ApiProperty({ type: Object, nullable: true, description: 'Vaults are not modelled: null' }) vault: null;
}

export class PnlLeaderboardEntryDto {
  @ApiProperty() address: string;
  @ApiProperty({ description: 'Milliseconds from the earliest activity to the latest state update' }) age: number;
  @ApiProperty({ description: 'Total equity (USD)' }) totalValue: number;
  @ApiProperty({ description: 'Cash: perp equity minus unrealized PnL (USD)' }) stableValue: number;
  @ApiProperty({ type: String, nullable: true, description: 'Coin of the largest open position by value (ties by coin); null without one' })
  topHolding: string | null;
  @ApiProperty({
    description:
      'All-time PnL now minus at the newest state update at or before 24 hours earlier (a wallet seen later: since its first update)',
  })
  pnlDay: number;
  @ApiProperty({ description: 'As pnlDay over 7 days' }) pnlWeek: number;
  @ApiProperty({ description: 'As pnlDay over 30 days' }) pnlMonth: number;
  @ApiProperty({ description: 'All-time perp PnL' }) pnlAllTime: number;
  @ApiProperty({ description: 'Position by rankBy, highest first (1-based), ties by address' }) rank: number;
  @ApiProperty({ type: LeaderboardProfileDto }) profile: LeaderboardProfileDto;
}

export class AssetValueDto {
  @ApiProperty() coin: string;
  @ApiProperty({ description: 'Open position value in the coin over every ranked wallet (USD)' }) value: number;
}

export class PnlLeaderboardResponseDto {
  @ApiProperty({ description: 'Ranked wallets: every wallet known to the service' }) totalCount: number;
  @ApiProperty({ type: [AssetValueDto], description: 'By value descending, then coin' }) assetsDistribution: AssetValueDto[];
  @ApiProperty({ description: 'Sum of the orderBy PnL over every ranked wallet' }) sumPnl: number;
  @ApiProperty({ type: [PnlLeaderboardEntryDto] }) data: PnlLeaderboardEntryDto[];
}
