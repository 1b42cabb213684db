import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { LIQUIDATION_FILLS_MAX_LIMIT, LIQUIDATION_RISK_MAX_LIMIT } from '#market';
import { NextCursor, PageLimit, PageOffset, PlainIntegerId, QueryCoin, QueryTime } from '../http/query-fields.js';

const ADDRESS = /^0x[0-9a-f]{40}$/i;

/** More than any exchange's number of markets. */
const LIQUIDATION_RISK_MAX_OFFSET = 1_000_000;

export class LiquidationFillsQueryDto {
  @PageLimit(LIQUIDATION_FILLS_MAX_LIMIT, 'Number of fills')
  limit?: number;

  @QueryCoin('Market, any case (`btc` is `BTC`); omitted: all markets. A market never seen is a 404.')
  coin?: string;

  @ApiPropertyOptional({
    example: '0x5ef843ccf26810073ee689a954f6d05f5b48fccb',
    description: "The fill's wallet (0x and 40 hex digits, any case)",
  })
  @IsOptional()
  @IsString()
  @Matches(ADDRESS, { message: 'address must be a 0x address of 40 hex digits' })
  address?: string;

  @ApiPropertyOptional({ enum: ['A', 'B'], description: 'A = ask/sell, B = bid/buy' })
  @IsOptional()
  @IsIn(['A', 'B'])
  side?: 'A' | 'B';

  @QueryTime('start', 'ISO 8601 (a time without a zone is UTC); inclusive. Alone: from start to now. Omitted: the latest fills.')
  start?: string;

  @QueryTime(
    'end',
    'ISO 8601 (a time without a zone is UTC); inclusive. Only together with start, later than it and at most 3 calendar months (UTC) after it.',
  )
  end?: string;

  @NextCursor('The nextCursor of the previous page: the next page of older fills (same filters)')
  nextCursor?: string;
}

export class LiquidationFillDto {
  @ApiProperty() oid: number;
  @ApiProperty({ description: "The fill's wallet, as stored" }) address: string;
  @ApiProperty({ example: 'BTC' }) coin: string;
  @ApiProperty({
    example: 'BTC',
    description: 'The coin itself: markets carry no longer name; other venues already read `<prefix>:<SYMBOL>`',
  })
  fullCoinName: string;
  @ApiProperty({ enum: ['perp'], description: 'Liquidations happen on perpetual markets only' }) fillType: 'perp';
  @ApiProperty() px: number;
  @ApiProperty() sz: number;
  @ApiProperty({ enum: ['A', 'B'] }) side: 'A' | 'B';
  @ApiProperty({ format: 'date-time', example: '2026-06-28T08:43:53.257Z' }) time: string;
  @ApiProperty({ description: 'Signed position before the fill' }) startPosition: number;
  @ApiProperty({ example: 'Close Short' }) dir: string;
  @ApiProperty() closedPnl: number;
  @ApiProperty() hash: string;
  @ApiProperty() crossed: boolean;
  @ApiProperty({ description: 'Negative for a maker rebate; includes builderFee' }) fee: number;
  @ApiProperty({ description: '0 when no builder' }) builderFee: number;
  @ApiProperty() tid: number;
  @ApiProperty({ example: 'USDC', description: "As the exchange gave it ('' when it gave none)" }) feeToken: string;
  @ApiProperty({ description: "The builder's address; '' when none" }) builder: string;
  @ApiProperty({ description: "The liquidated wallet (the fill may be its own side or its counterparty's)" }) liquidatedUser: string;
  @ApiProperty() liquidationMarkPx: number;
  @ApiProperty({ example: 'market' }) liquidationMethod: string;
}

export class LiquidationFillsResponseDto {
  @ApiProperty({ type: [LiquidationFillDto], description: 'Newest first; ties by tid, then address, descending' })
  fills: LiquidationFillDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Opaque; send back as query nextCursor for older fills; null on the last page',
  })
  nextCursor: string | null;
}

export class LiquidationRiskParamsDto {
  @ApiProperty({ type: 'integer', description: 'Cohort id, 1 to 16 (another integer: 404)' })
  @PlainIntegerId()
  segmentId: number;
}

export class LiquidationRiskQueryDto {
  @PageOffset(LIQUIDATION_RISK_MAX_OFFSET, 'Coins to skip')
  offset?: number;

  @PageLimit(LIQUIDATION_RISK_MAX_LIMIT, 'Coins per page')
  limit?: number;
}

export class LiquidationRiskItemDto {
  @ApiProperty({ example: 'BTC' }) coin: string;
  @ApiProperty({ description: "Sum of the values of the cohort's open positions in the coin (USD)" }) totalValue: number;
  @ApiProperty({ description: 'Part of totalValue in positions at or past 75 % of the way from entry to their liquidation price' })
  riskValue: number;
  @ApiProperty({ description: 'riskValue / totalValue * 100, rounded to 8 decimal places; 0 when totalValue is 0' }) percentRisk: number;
}

export class LiquidationRiskResponseDto {
  @ApiProperty({ description: 'Coins the cohort holds open positions in' }) totalCount: number;
  @ApiProperty({ type: [LiquidationRiskItemDto], description: 'By totalValue descending, then coin ascending' })
  items: LiquidationRiskItemDto[];
}
