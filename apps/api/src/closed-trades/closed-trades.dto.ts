import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import {
  CLOSED_TRADES_DEFAULT_LIMIT,
  CLOSED_TRADES_MAX_LIMIT,
  CLOSED_TRADES_SUMMARY_INTERVALS,
  type ClosedTradesSummaryInterval,
} from '#market';
import { NextCursor, PageLimit, QueryTime } from '../http/query-fields.js';

const ADDRESS = /^0x[0-9a-f]{40}$/i;
const ADDRESS_MESSAGE = 'address must be a 0x address of 40 hex digits';
const ADDRESS_DOC = {
  example: '0x5ef843ccf26810073ee689a954f6d05f5b48fccb',
  description: 'The wallet (0x and 40 hex digits, any case); required',
};

export class ClosedTradesQueryDto {
  @ApiProperty(ADDRESS_DOC)
  // Checked bottom-up: a missing address is reported as missing, not as malformed.
  @Matches(ADDRESS, { message: ADDRESS_MESSAGE })
  @IsString()
  @IsDefined({ message: 'address is required' })
  address: string;

  @QueryTime('startTime', 'Trades closed at or after this time, ISO 8601 (a time without a zone is UTC); default endTime minus 7 days')
  startTime?: string;

  @QueryTime('endTime', 'Trades closed at or before this time, ISO 8601; default now. Not before startTime and at most 30 days after it.')
  endTime?: string;

  @PageLimit(CLOSED_TRADES_MAX_LIMIT, 'Trades per page', CLOSED_TRADES_DEFAULT_LIMIT)
  limit?: number;

  @NextCursor(
    "The `nextCursor` of the previous page (opaque; an altered one is a 400). It keeps the first page's window: send the same startTime and " +
      'endTime, or none (another window is a 400).',
  )
  nextCursor?: string;
}

export class ClosedTradesSummaryQueryDto {
  @ApiProperty(ADDRESS_DOC)
  // Checked bottom-up: a missing address is reported as missing, not as malformed.
  @Matches(ADDRESS, { message: ADDRESS_MESSAGE })
  @IsString()
  @IsDefined({ message: 'address is required' })
  address: string;

  @ApiPropertyOptional({
    enum: CLOSED_TRADES_SUMMARY_INTERVALS,
    default: 'all',
    description:
      'Date intervals: trades closed at or after now minus the lookback (365, 180, 90 or 30 days of 24 h); `last50`: the 50 latest closed trades',
  })
  @IsOptional()
  @IsIn(CLOSED_TRADES_SUMMARY_INTERVALS)
  interval?: ClosedTradesSummaryInterval;
}

export class ClosedTradeDto {
  @ApiProperty({ description: 'Lower-cased' }) address: string;
  @ApiProperty({ description: 'Unique: sha256 of the trade identity (wallet, coin, first fill), stable across rebuilds' }) hash: string;
  @ApiProperty({ example: '1751328000123-3f2a9c0d1b2e4f56', description: '<openTime ms>-<first 16 hex digits of hash>' }) id: string;
  @ApiProperty({ enum: ['long', 'short'] }) side: 'long' | 'short';
  @ApiProperty({ example: 'BTC' }) coin: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Size-weighted exit price; null when no reducing fill was seen' }) avgExit:
    number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Size-weighted entry price; null when no opening fill was seen (partial trade)',
  })
  avgEntry: number | null;
  @ApiProperty({ type: 'integer', description: 'closeTime - openTime, in ms' }) duration: number;
  @ApiProperty({ format: 'date-time' }) openTime: string;
  @ApiProperty({ format: 'date-time', description: 'Time of the fill that brought the position back to zero' }) closeTime: string;
  @ApiProperty({ description: 'The data does not cover the whole trade (it began before the history, or a gap ended it)' })
  partial: boolean;
  @ApiProperty({ description: 'Size opened by the fills seen' }) totalSize: number;
  @ApiProperty({ description: 'Entry notional of totalSize, USD' }) totalUsd: number;
  @ApiProperty({ description: "Gross: the sum of the fills' closed PnL (fees in fee, funding in fundingUsd)" }) realizedPnlUsd: number;
  @ApiProperty({ type: 'integer', description: 'A flip fill counts in both trades it touches' }) countFills: number;
  @ApiProperty({ description: 'Sum of the fees (maker rebates negative)' }) fee: number;
  @ApiProperty({ description: 'Perp fees are paid in USDC: equal to fee' }) feeUsd: number;
  @ApiProperty({ description: 'Funding received (+) or paid (-) while the trade was open' }) fundingUsd: number;
  @ApiProperty({ description: 'The net result: realizedPnlUsd - feeUsd + fundingUsd, computed exactly before it is written as a number' })
  netPnlUsd: number;
  @ApiProperty({
    enum: ['win', 'loss', 'even'],
    description:
      'win: net result above 0; loss: below 0; even: exactly 0. Decided on the exact decimals, and the very rule the summary counts: its winCount ' +
      'is the number of the trades of its interval marked win',
  })
  outcome: 'win' | 'loss' | 'even';
}

export class ClosedTradesPageDto {
  @ApiProperty({ type: [ClosedTradeDto], description: 'Newest close time first; ties by hash, descending' }) trades: ClosedTradeDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Opaque; send back as query nextCursor for older trades; null on the last page',
  })
  nextCursor: string | null;
}

const NULL_RULE = 'null without trades';

export class ClosedTradesSummaryRecordDto {
  @ApiProperty({ type: 'integer' }) tradeCount: number;
  @ApiProperty({
    type: 'integer',
    description: "Trades whose net result (realizedPnlUsd - feeUsd + fundingUsd) is above 0: the listed trades' outcome win",
  })
  winCount: number;
  @ApiProperty({ type: 'integer', description: "Net result below 0 (exactly 0 is neither): the listed trades' outcome loss" })
  lossCount: number;
  @ApiProperty({ type: Number, nullable: true, description: `winCount / tradeCount; ${NULL_RULE}` }) winRate: number | null;
  @ApiProperty({ type: 'integer' }) longCount: number;
  @ApiProperty({ type: 'integer' }) shortCount: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Share of the long trades that won; null without long trades' }) longWinRate:
    number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Share of the short trades that won; null without short trades' })
  shortWinRate: number | null;
  @ApiProperty({ description: "Gross: sum of the trades' realizedPnlUsd" }) realizedPnlUsd: number;
  @ApiProperty({ description: 'Sum of the net results of the wins' }) grossProfitUsd: number;
  @ApiProperty({ description: 'Sum of the net results of the losses (0 or negative)' }) grossLossUsd: number;
  @ApiProperty() feesUsd: number;
  @ApiProperty() fundingUsd: number;
  @ApiProperty({ description: 'Entry plus exit notional, USD' }) volumeUsd: number;
  @ApiProperty({ type: Number, nullable: true, description: `Mean entry notional (totalUsd); ${NULL_RULE}` }) avgSizeUsd: number | null;
  @ApiProperty({ type: Number, nullable: true, description: `Mean duration, rounded to the ms; ${NULL_RULE}` }) avgDurationMs:
    number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: `Median duration (even count: mean of the two middle ones, rounded to the ms); ${NULL_RULE}`,
  })
  medianDurationMs: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'grossProfitUsd / |grossLossUsd|; null without a loss' }) profitFactor:
    number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Mean win / |mean loss|; null without a win or without a loss' }) payoffRatio:
    number | null;
  @ApiProperty({ type: Number, nullable: true, description: `Mean net result per trade; ${NULL_RULE}` }) expectancyUsd: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Best net result among the wins; null without a win' }) largestWinUsd:
    number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Worst net result among the losses (negative); null without a loss' })
  largestLossUsd: number | null;
}

export class ClosedTradesCoinSummaryDto extends ClosedTradesSummaryRecordDto {
  @ApiProperty({ example: 'BTC' }) coin: string;
}

export class ClosedTradesSummaryDto {
  @ApiProperty({ description: 'Lower-cased' }) address: string;
  @ApiProperty({ enum: CLOSED_TRADES_SUMMARY_INTERVALS }) interval: ClosedTradesSummaryInterval;
  @ApiProperty({ type: ClosedTradesSummaryRecordDto }) summary: ClosedTradesSummaryRecordDto;
  @ApiProperty({ type: [ClosedTradesCoinSummaryDto], description: 'One record per coin traded in the interval, by coin name' })
  byCoin: ClosedTradesCoinSummaryDto[];
}

/** The body `@SuccessEnvelope()` makes of the handler's ClosedTradesSummaryDto. */
export class ClosedTradesSummaryResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: ClosedTradesSummaryDto }) data: ClosedTradesSummaryDto;
}
