import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CohortMetricsService, MarketMetricsService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';
import {
  CoinCohortSeriesDto,
  CohortMetricsPageDto,
  CohortMetricsParamsDto,
  CohortMetricsQueryDto,
  MarketMetricsPageDto,
  MarketMetricsQueryDto,
  PositionRecencyQueryDto,
} from './position-metrics.dto.js';
import { CoinParamsDto } from '../http/path-params.js';

@ApiTags('Position metrics')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/position-metrics')
export class PositionMetricsController {
  constructor(
    private readonly cohorts: CohortMetricsService,
    private readonly market: MarketMetricsService,
  ) {}

  @Get('general')
  @CachedRead(MarketMetricsService, { wallClock: true })
  @ApiOperation({
    summary: 'Market-wide snapshots, newest first',
    description:
      'One snapshot per exchange state update (about every 15 to 20 minutes). `start` and `end` are inclusive; `end` defaults to now.',
  })
  @ApiOkResponse({ type: MarketMetricsPageDto })
  general(@Query() query: MarketMetricsQueryDto) {
    return this.market.page(query);
  }

  @Get('coin/:coin/segment/:segment')
  @CachedRead(CohortMetricsService)
  @ApiOperation({
    summary: "One cohort's position snapshots of a coin, newest first",
    description:
      'One row per exchange state update in [start, end] (inclusive), zeros where the cohort held no position in the coin at that update. ' +
      'With a `positionRecencyTimeframe` other than `all`, each snapshot counts only the positions opened in that window before its own time.',
  })
  @ApiOkResponse({ type: CohortMetricsPageDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown coin or cohort' })
  cohort(@Param() params: CohortMetricsParamsDto, @Query() query: CohortMetricsQueryDto) {
    return this.cohorts.page({ ...query, ...params });
  }

  @Get('coin/:coin')
  @CachedRead(CohortMetricsService)
  @ApiOperation({
    summary: "Every cohort's position series of a coin, about every 12 hours",
    description:
      'One entry per cohort, in the cohort table order. Rows newest first over the whole stored history: the latest state update, then for each ' +
      '12-hour UTC boundary (00:00, 12:00) going back, the newest update at or before it; an update picked twice (the latest on a boundary, ' +
      'or a gap in the history longer than 12 hours) appears once. `bias` = totalPositionValueLong / totalPositionValue (the long share by ' +
      'value), null when the value is 0. `positionRecencyTimeframe` (default `all`) restricts each snapshot to positions opened in that window before it.',
  })
  @ApiOkResponse({ type: CoinCohortSeriesDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown coin' })
  coinSeries(@Param() params: CoinParamsDto, @Query() query: PositionRecencyQueryDto) {
    return this.cohorts.coinSeries(params.coin, query.positionRecencyTimeframe);
  }
}
