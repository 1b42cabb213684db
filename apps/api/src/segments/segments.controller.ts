import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CohortsService } from '#market';
import { ApiStandardErrors } from '../http/error-responses.dto.js';
import { ListSegmentsQueryDto, SegmentDto } from './segments.dto.js';

@ApiTags('Cohorts')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/segments')
export class SegmentsController {
  constructor(private readonly cohorts: CohortsService) {}

  @Get()
  @ApiOperation({ summary: 'The 16 cohort definitions (definitions only, not wallets)' })
  @ApiOkResponse({ type: [SegmentDto] })
  list(@Query() query: ListSegmentsQueryDto) {
    return this.cohorts.list(query);
  }
}
