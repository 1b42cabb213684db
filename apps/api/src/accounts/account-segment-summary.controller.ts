import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CohortSummaryService } from '#market';
import { SegmentSummaryDto, SegmentSummaryParamsDto, SegmentSummaryQueryDto } from '../cohorts/cohorts.dto.js';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

// The custom-dashboard flow's path of the cohort summary: the same service, parameters and body.
@ApiTags('Account')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/segments')
export class AccountSegmentSummaryController {
  constructor(private readonly summaries: CohortSummaryService) {}

  @Get(':segmentId/summary')
  @CachedRead(CohortSummaryService)
  @ApiOperation({
    summary: "A cohort's currently open perp positions (the dashboard's path)",
    description: 'The same summary, parameters and body as GET /api/external/segments/{segmentId}/summary.',
  })
  @ApiOkResponse({ type: SegmentSummaryDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'segmentId is an integer outside 1 to 16' })
  summary(@Param() params: SegmentSummaryParamsDto, @Query() query: SegmentSummaryQueryDto) {
    return this.summaries.summary(params.segmentId, query.positionAge);
  }
}
