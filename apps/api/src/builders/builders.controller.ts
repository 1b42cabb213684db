import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BuildersService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { BuilderProfileDto, BuilderProfileParamsDto, BuildersListParamsDto, BuildersListResponseDto } from './builders.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

@ApiTags('Builders')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/builders')
export class BuildersController {
  constructor(private readonly builders: BuildersService) {}

  @Get('list/timeframe/:timeframe')
  @CachedRead(BuildersService)
  @ApiOperation({
    summary: 'Builders (third-party front-ends) by revenue over a timeframe',
    description:
      'Periods end with the UTC hour of the newest fill the service has taken in (exchange time, not the wall clock): 24h, 7d and 30d are the last 24, ' +
      '168 and 720 whole hours, the *Prev figures the same number of hours before them; `all` has no previous period (*Prev null). ' +
      'Revenue is the sum of builder fees, volume the notional of the fills routed through the builder, users the distinct wallets.',
  })
  @ApiOkResponse({ type: BuildersListResponseDto })
  list(@Param() params: BuildersListParamsDto, @Query() _query: NoQueryDto) {
    return this.builders.leaderboard(params.timeframe);
  }

  @Get(':builder/profile')
  @CachedRead(BuildersService)
  @ApiOperation({
    summary: "A builder's profile: revenue, fee, milestones, activity series and distributions",
    description:
      'Everything is derived from the fills routed through the builder. Names, referral code, url and the X account are not in that data: null. ' +
      'Timeframes as in the builders list.',
  })
  @ApiOkResponse({ type: BuilderProfileDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No fill was ever routed through that address' })
  profile(@Param() params: BuilderProfileParamsDto, @Query() _query: NoQueryDto) {
    return this.builders.profile(params.builder);
  }
}
