import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WalletsService } from '#market';
import { ApiStandardErrors } from '../http/error-responses.dto.js';
import { WALLETS_ORDER_RULE, WalletsQueryDto, WalletsResponseDto } from './wallets.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

@ApiTags('Wallets')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/wallets')
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  @Get()
  @CachedRead(WalletsService)
  @ApiOperation({
    summary: 'Wallet profiles, one offset page at a time, as of the latest state update',
    description:
      `Default: every wallet by totalEquity, descending. ${WALLETS_ORDER_RULE} A state update between two page requests may move wallets ` +
      'between pages. Filters combine with AND: segmentIds (size or pnl cohort), hasOpenPositions, address. totalCount counts the wallets ' +
      'matching the filters, in the same snapshot as the page.',
  })
  @ApiOkResponse({ type: WalletsResponseDto })
  list(@Query() query: WalletsQueryDto) {
    return this.wallets.list(query);
  }
}
