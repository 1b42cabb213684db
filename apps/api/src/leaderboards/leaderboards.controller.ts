import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LeaderboardsService } from '#market';
import { ApiStandardErrors } from '../http/error-responses.dto.js';
import { PnlLeaderboardQueryDto, PnlLeaderboardResponseDto } from './leaderboards.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

@ApiTags('Leaderboards')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/leaderboards')
export class LeaderboardsController {
  constructor(private readonly leaderboards: LeaderboardsService) {}

  @Get('all-pnl')
  @CachedRead(LeaderboardsService)
  @ApiOperation({
    summary: 'Every known wallet by day, week, month or all-time perp PnL',
    description:
      'Times are exchange time: "now" is the latest state update. Day, week and month PnL = all-time PnL now minus the all-time PnL at the newest ' +
      'state update at or before 24 hours, 7 days or 30 days earlier; a wallet first seen since then counts from its first update. rank is the ' +
      'position by rankBy, highest first, whatever order. Offsets walk a stable order (orderBy, then address).',
  })
  @ApiOkResponse({ type: PnlLeaderboardResponseDto })
  allPnl(@Query() query: PnlLeaderboardQueryDto) {
    return this.leaderboards.allPnl(query);
  }
}
