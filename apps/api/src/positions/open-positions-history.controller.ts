import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OpenPositionsHistoryService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { OpenPositionsHistoryQueryDto, OpenPositionsHistoryResponseDto } from './positions.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';
import { CoinParamsDto } from '../http/path-params.js';

@ApiTags('Positions')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/coin')
export class OpenPositionsHistoryController {
  constructor(private readonly history: OpenPositionsHistoryService) {}

  @Get(':coin/open-positions/history')
  @CachedRead(OpenPositionsHistoryService)
  @ApiOperation({
    summary: "A coin's open-position count and value over time, newest first",
    description:
      'The latest state update in [start, end], then one row every 2 hours: for each 2-hour UTC boundary going back, the newest update at or before it ' +
      '(a gap of several hours gives one row). Each row counts every open position of the coin at that update (all cohorts); an update where nobody ' +
      'held the coin is a row of zeros.',
  })
  @ApiOkResponse({ type: OpenPositionsHistoryResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown coin' })
  list(@Param() params: CoinParamsDto, @Query() query: OpenPositionsHistoryQueryDto) {
    return this.history.history(params.coin, query);
  }
}
