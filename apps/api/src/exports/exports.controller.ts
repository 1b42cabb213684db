import { Controller, Get, Param, Query, Redirect } from '@nestjs/common';
import { ApiBearerAuth, ApiFoundResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ExportsService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { CoinParamsDto } from '../http/path-params.js';

const LINK =
  'A 302 to a signed download link that works for 120 seconds, without the bearer token. The file is built once per state update and reused until the next.';

@ApiTags('Exports')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external')
export class ExportsController {
  constructor(private readonly exports: ExportsService) {}

  @Get('exports/coins/:coin/liquidation-heatmap')
  @Redirect()
  @ApiOperation({
    summary: 'Liquidation heatmap of a coin (JSON file)',
    description:
      `${LINK} The file is {coin, heatmap: [bins]}: contiguous equal-width bins from 0 up past the highest liquidation price of the coin's open ` +
      'positions (about 100 bins, round widths), each with the value of the positions whose liquidation price is in it (USD), their count, ' +
      'and the cohort (size or pnl) holding the most of that value (lowest id on a tie; null in a bin without positions). Coin is case-insensitive.',
  })
  @ApiFoundResponse({ description: 'Location: the signed link' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown coin, or no state update processed yet' })
  async liquidationHeatmap(@Param() { coin }: CoinParamsDto, @Query() _query: NoQueryDto) {
    return { url: (await this.exports.liquidationHeatmap(coin)).url, statusCode: 302 };
  }

  @Get('exports/total-wallets-equity-chart-data')
  @Redirect()
  @ApiOperation({
    summary: 'Summed wallet equity: all-time high, 24 hours ago and history (JSON file)',
    description:
      `${LINK} The file is {athData, data24HoursAgo, history}: the state update with the highest total equity, the newest one at least 24 hours ` +
      'before the latest (the oldest one while the history is shorter), and every update newest first. The vault column is null: vault balances are not tracked.',
  })
  @ApiFoundResponse({ description: 'Location: the signed link' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No state update processed yet' })
  async walletsEquityChart(@Query() _query: NoQueryDto) {
    return { url: (await this.exports.walletsEquityChart()).url, statusCode: 302 };
  }

  @Get('exports/coins/:coin/position-breakdown-by-size')
  @Redirect()
  @ApiOperation({
    summary: "A coin's open positions by size (JSON file)",
    description:
      `${LINK} The file is {coin, createdAt, breakdownBySize: [buckets]}: one bucket per size range (the size cohorts' USD ranges applied to ` +
      "each position's value, smallest first) with its count, value, long value and value at or past 75 % of the way to liquidation, each " +
      'beside the same figure 24 hours before the update (past*; the oldest update while the history is shorter). maxSize is null for the top range.',
  })
  @ApiFoundResponse({ description: 'Location: the signed link' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown coin, or no state update processed yet' })
  async positionBreakdown(@Param() { coin }: CoinParamsDto, @Query() _query: NoQueryDto) {
    return { url: (await this.exports.positionBreakdownBySize(coin)).url, statusCode: 302 };
  }

  @Get('positions/open/coin/:coin')
  @Redirect()
  @ApiOperation({
    summary: 'Every open position of a coin (CSV file)',
    description:
      `${LINK} One row per open position at the latest state update, with the Open position record columns in order; decimals are exact. ` +
      'crossLeverage or isolatedLeverage holds the leverage by margin mode (the other is empty); profile_balance is perp equity minus unrealised PnL.',
  })
  @ApiFoundResponse({ description: 'Location: the signed link' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown coin, or no state update processed yet' })
  async openPositions(@Param() { coin }: CoinParamsDto, @Query() _query: NoQueryDto) {
    return { url: (await this.exports.openPositionsCsv(coin)).url, statusCode: 302 };
  }
}
