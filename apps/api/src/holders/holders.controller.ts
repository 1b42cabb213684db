import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HoldersService } from '#market';
import { ApiStandardErrors } from '../http/error-responses.dto.js';
import { HoldersQueryDto, HoldersResponseDto } from './holders.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

@ApiTags('Holders')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/hype/holders')
export class HoldersController {
  constructor(private readonly holders: HoldersService) {}

  @Get()
  @CachedRead(HoldersService)
  @ApiOperation({
    summary: 'Holders of HYPE, the exchange token',
    description:
      "Every wallet whose latest state update shows HYPE on spot or staked. USD values at that update's HYPE price; percentOfCirculatingSupply " +
      'against the HYPE_CIRCULATING_SUPPLY setting. rank follows rankBy and rankOrder whatever the page order; offsets walk a stable order ' +
      '(orderBy, then address). history: the balance 24 hours and 7 days before the latest state update (exchange time).',
  })
  @ApiOkResponse({ type: HoldersResponseDto })
  list(@Query() query: HoldersQueryDto) {
    return this.holders.page(query);
  }
}
