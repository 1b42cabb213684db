import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClosedTradesService, ClosedTradesSummaryService } from '#market';
import { ApiStandardErrors } from '../http/error-responses.dto.js';
import { SuccessEnvelope } from '../http/success-envelope.interceptor.js';
import {
  ClosedTradesPageDto,
  ClosedTradesQueryDto,
  ClosedTradesSummaryQueryDto,
  ClosedTradesSummaryResponseDto,
} from './closed-trades.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

@ApiTags('Closed trades')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/closed-trades')
export class ClosedTradesController {
  constructor(
    private readonly trades: ClosedTradesService,
    private readonly summaries: ClosedTradesSummaryService,
  ) {}

  @Get()
  @CachedRead(ClosedTradesService, { wallClock: true })
  @ApiOperation({
    summary: "A wallet's closed trades, newest close time first",
    description:
      'Trades closed in [startTime, endTime] (both inclusive; default the 7 days up to now; at most 30 days apart), ordered by close time descending, ' +
      'ties by hash descending. A trade opens when the position leaves zero and closes when it returns to zero; a flip closes one and opens the next.',
  })
  @ApiOkResponse({ type: ClosedTradesPageDto })
  list(@Query() query: ClosedTradesQueryDto) {
    return this.trades.list(query);
  }

  @Get('summary')
  @CachedRead(ClosedTradesSummaryService, { wallClock: true })
  @SuccessEnvelope()
  @ApiOperation({
    summary: "A wallet's closed-trade summary, overall and per coin",
    description:
      'Over the trades of the interval: counts, win rates, long and short behaviour, PnL, gross profit and loss, fees, funding, volume, sizes, ' +
      'durations, profit factor, payoff ratio and expectancy. A trade wins when its net result (realizedPnlUsd - feeUsd + fundingUsd) is above 0 ' +
      'and loses below 0. Ratios with nothing to divide by are null. A wallet without trades in the interval: zeros, nulls and an empty byCoin.',
  })
  @ApiOkResponse({ type: ClosedTradesSummaryResponseDto })
  summary(@Query() query: ClosedTradesSummaryQueryDto) {
    return this.summaries.summary(query.address, query.interval);
  }
}
