import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { COHORT_POSITION_WINDOWS, type CohortPositionWindow } from '#market';
import { SegmentDto } from '../segments/segments.dto.js';
import { PlainIntegerId } from '../http/query-fields.js';

const WINDOW_RULE =
  "Measured back from the latest state update's exchange time; a position opened exactly 24 h (7 d, 30 d) before it counts.";

export class SegmentSummaryParamsDto {
  @ApiProperty({ type: 'integer', description: 'Cohort id, 1 to 16 (another integer: 404)' })
  @PlainIntegerId()
  segmentId: number;
}

export class SegmentSummaryQueryDto {
  @ApiPropertyOptional({
    enum: COHORT_POSITION_WINDOWS,
    default: 'all',
    description: `Keeps only the cohort's wallets that opened at least one of their currently open positions within this time; all open positions of those wallets then count. ${WINDOW_RULE}`,
  })
  @IsOptional()
  @IsIn(COHORT_POSITION_WINDOWS)
  positionAge?: CohortPositionWindow;
}

export class CohortSideSummaryDto {
  @ApiProperty({ enum: ['long', 'short'] }) side: 'long' | 'short';
  @ApiProperty({ type: 'integer' }) countOpenPositions: number;
  @ApiProperty({ description: 'USD value of those positions' }) totalValue: number;
}

const RATIO_RULE = 'over activePerpEquity, rounded to 8 decimals; null when activePerpEquity <= 0';

export class OpenPerpsSummaryDto {
  @ApiProperty({ type: Number, nullable: true, description: `(long value - short value) ${RATIO_RULE} (the wallet perpBias formula)` })
  perpBias: number | null;
  @ApiProperty({ type: Number, nullable: true, description: `totalValue ${RATIO_RULE}` }) exposureRatio: number | null;
  @ApiProperty({ type: 'integer', description: 'Counted open positions (those of the traders in position)' }) countOpenPositions: number;
  @ApiProperty({ type: 'integer', description: 'Cohort wallets with at least one counted open position' }) countTradersInPosition: number;
  @ApiProperty({ type: 'integer', description: 'Traders in position whose counted positions sum to an unrealized PnL > 0' })
  countTradersInProfit: number;
  @ApiProperty({ description: 'USD value of the counted positions' }) totalValue: number;
  @ApiProperty({ description: 'USD value of the counted long positions' }) totalLongValue: number;
  @ApiProperty({ description: 'Sum of the perp equity of the traders in position (USD)' }) totalActivePerpEquity: number;
  @ApiProperty({ type: [CohortSideSummaryDto], description: 'Always two entries: long, then short' }) bySide: CohortSideSummaryDto[];
}

export class CohortSummaryFiguresDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 16 }) segmentId: number;
  @ApiProperty({ type: 'integer', description: 'openPerpsSummary.countTradersInPosition' }) countTradersInPosition: number;
  @ApiProperty({ type: Number, nullable: true, description: 'openPerpsSummary.perpBias' }) perpBias: number | null;
  @ApiProperty({ description: 'openPerpsSummary.totalValue' }) positionValue: number;
  @ApiProperty({ description: 'openPerpsSummary.totalLongValue' }) positionLongValue: number;
  @ApiProperty({ description: 'The short side of openPerpsSummary.bySide' }) positionShortValue: number;
  @ApiProperty({ type: Number, nullable: true, description: 'openPerpsSummary.exposureRatio' }) exposureRatio: number | null;
  @ApiProperty({ description: 'openPerpsSummary.totalActivePerpEquity' }) activePerpEquity: number;
}

export class SegmentSummaryDto {
  @ApiProperty({ type: SegmentDto }) segment: SegmentDto;
  @ApiProperty({ type: OpenPerpsSummaryDto }) openPerpsSummary: OpenPerpsSummaryDto;
  @ApiProperty({ type: CohortSummaryFiguresDto, description: 'The same figures under the names of the summary block' })
  summary: CohortSummaryFiguresDto;
}

export class PositionsHeatmapQueryDto {
  @ApiPropertyOptional({
    enum: COHORT_POSITION_WINDOWS,
    default: 'all',
    description: `Only open positions opened within this time. ${WINDOW_RULE}`,
  })
  @IsOptional()
  @IsIn(COHORT_POSITION_WINDOWS)
  openedWithin?: CohortPositionWindow;
}

export class HeatmapSegmentDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 16 }) segmentId: number;
  @ApiProperty() coin: string;
  @ApiProperty({ description: "USD value of the cohort's open positions in the coin" }) totalValue: number;
  @ApiProperty() totalLongValue: number;
  @ApiProperty() totalShortValue: number;
  @ApiProperty({ type: 'integer' }) count: number;
  @ApiProperty({ type: 'integer' }) countLong: number;
  @ApiProperty({ type: 'integer' }) countShort: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Long share by value: totalLongValue / totalValue, rounded to 8 decimals; null when totalValue is 0',
  })
  bias: number | null;
}

export class HeatmapCoinDto {
  @ApiProperty() coin: string;
  @ApiProperty({ description: "USD value of the coin's open positions, each counted once" }) totalValue: number;
  @ApiProperty() totalLongValue: number;
  @ApiProperty() totalShortValue: number;
  @ApiProperty({ type: 'integer' }) count: number;
  @ApiProperty({ type: 'integer' }) countLong: number;
  @ApiProperty({ type: 'integer' }) countShort: number;
  @ApiProperty({
    type: [HeatmapSegmentDto],
    description:
      "Exactly 16 entries, cohort ids 1 to 16 in id order (zeros and a null bias for a cohort without positions in the coin). A position counts in its wallet's size cohort and in its pnl cohort, so the entries add up to twice the coin's totals.",
  })
  segments: HeatmapSegmentDto[];
}

export class PositionsHeatmapDto {
  @ApiProperty({ type: [HeatmapCoinDto], description: 'Coins by totalValue descending, then coin ascending' }) heatmap: HeatmapCoinDto[];
}
