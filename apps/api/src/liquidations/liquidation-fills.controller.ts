import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LiquidationFillsService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { LiquidationFillsQueryDto, LiquidationFillsResponseDto } from './liquidations.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

@ApiTags('Liquidations')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/fills')
export class LiquidationFillsController {
  constructor(private readonly fills: LiquidationFillsService) {}

  @Get('liquidation')
  @CachedRead(LiquidationFillsService)
  @ApiOperation({
    summary: 'Raw liquidation fills, newest first',
    description:
      'Fills that carry a liquidation (both sides of a liquidation trade), newest first, ties by tid then address. ' +
      'Filters combine with AND. `fullCoinName` is the coin itself.',
  })
  @ApiOkResponse({ type: LiquidationFillsResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Unknown coin' })
  list(@Query() query: LiquidationFillsQueryDto) {
    return this.fills.page(query);
  }
}
