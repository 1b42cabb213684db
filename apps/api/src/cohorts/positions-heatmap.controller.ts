import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PositionsHeatmapService } from '#market';
import { ApiStandardErrors } from '../http/error-responses.dto.js';
import { PositionsHeatmapDto, PositionsHeatmapQueryDto } from './cohorts.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

@ApiTags('Positions')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/positions')
export class PositionsHeatmapController {
  constructor(private readonly heatmaps: PositionsHeatmapService) {}

  @Get('heatmap')
  @CachedRead(PositionsHeatmapService)
  @ApiOperation({
    summary: 'Open positions per coin and cohort, as of the latest state update',
    description:
      "Each open position counts once in its coin's totals and in two of its 16 cohort entries: its wallet's size cohort and its pnl cohort. " +
      '`bias` is the long share by value (totalLongValue / totalValue, 8 decimals), null when totalValue is 0. Coins by totalValue ' +
      'descending, then coin ascending.',
  })
  @ApiOkResponse({ type: PositionsHeatmapDto })
  heatmap(@Query() query: PositionsHeatmapQueryDto) {
    return this.heatmaps.heatmap(query.openedWithin);
  }
}
