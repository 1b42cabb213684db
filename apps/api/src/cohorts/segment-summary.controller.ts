import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CohortSummaryService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { SegmentSummaryDto, SegmentSummaryParamsDto, SegmentSummaryQueryDto } from './cohorts.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

// Shares its path prefix with SegmentsController (which owns `GET /`): Nest merges the two.
@ApiTags('Cohorts')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/segments')
export class SegmentSummaryController {
  constructor(private readonly summaries: CohortSummaryService) {}

  @Get(':segmentId/summary')
  @CachedRead(CohortSummaryService)
  @ApiOperation({
    summary: "A cohort's currently open perp positions",
    description:
      'Cohort wallets: those whose size cohort (ids 1-7, 16) or pnl cohort (8-15) is the id. Traders in position: cohort wallets with at least ' +
      'one counted open position; in profit: those whose counted positions sum to an unrealized PnL > 0. Active perp equity: the sum of the ' +
      "traders' perp equity. exposureRatio = totalValue / activePerpEquity; perpBias = (long value - short value) / activePerpEquity (the " +
      'wallet perpBias formula); both rounded to 8 decimals and null when activePerpEquity <= 0. With positionAge, only wallets that opened ' +
      'at least one of their open positions within that time count, with all their open positions. `summary` repeats the figures under its ' +
      'own names (positionValue = totalValue, activePerpEquity = totalActivePerpEquity). A cohort without such wallets: zeros and nulls.',
  })
  @ApiOkResponse({ type: SegmentSummaryDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'segmentId is an integer outside 1 to 16' })
  summary(@Param() params: SegmentSummaryParamsDto, @Query() query: SegmentSummaryQueryDto) {
    return this.summaries.summary(params.segmentId, query.positionAge);
  }
}
