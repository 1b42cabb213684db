import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LiquidationRiskService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { LiquidationRiskParamsDto, LiquidationRiskQueryDto, LiquidationRiskResponseDto } from './liquidations.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

@ApiTags('Liquidations')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external')
export class LiquidationRiskController {
  constructor(private readonly risk: LiquidationRiskService) {}

  @Get(':segmentId/assets/liquidation-risk')
  @CachedRead(LiquidationRiskService)
  @ApiOperation({
    summary: "Liquidation risk by coin of a cohort's open positions",
    description:
      'For the wallets now in the cohort (size or pnl, by its category) and their open positions, per coin: the total value, ' +
      'the value of positions at or past 75 % of the way from entry to their liquidation price (none without a liquidation price), ' +
      'and that as a percentage. Coins by totalValue descending, then coin ascending.',
  })
  @ApiOkResponse({ type: LiquidationRiskResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown cohort (an integer outside 1..16)' })
  list(@Param() params: LiquidationRiskParamsDto, @Query() query: LiquidationRiskQueryDto) {
    return this.risk.page(params.segmentId, query);
  }
}
