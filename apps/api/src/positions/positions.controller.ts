import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PositionsService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { PositionsQueryDto, PositionsResponseDto } from './positions.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

@ApiTags('Positions')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/positions')
export class PositionsController {
  constructor(private readonly positions: PositionsService) {}

  @Get()
  @CachedRead(PositionsService, { wallClock: true })
  @ApiOperation({
    summary: 'Historical positions open at any moment of [start, end], newest open time first',
    description:
      'A position is one stretch of a wallet on a coin on one side. It is in the window when it opened at or before `end` and was still open at `start` ' +
      '(closed at or after it, or not closed). Each position appears once per window across the pages; `closeTime` is its real close time even for an ' +
      'earlier window. Ordered by `openTime` descending, then `id` descending.',
  })
  @ApiOkResponse({ type: PositionsResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown coin or cohort' })
  list(@Query() query: PositionsQueryDto) {
    return this.positions.page(query);
  }
}
