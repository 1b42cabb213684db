import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { DeliveryLogService } from '#alerts';
import { CurrentPrincipal, type Principal } from '#auth';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { SuccessEnvelope } from '../http/success-envelope.interceptor.js';
import {
  DeliveriesQueryDto,
  DeliveriesResponseDto,
  DeliveryIdParamsDto,
  DeliveryResponseDto,
  IdParamsDto,
  ReplayBodyDto,
  ReplayResponseDto,
} from './events.dto.js';

@ApiTags('alerts')
@ApiBearerAuth()
@ApiStandardErrors()
@ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such endpoint or delivery of yours' })
@Controller('events')
export class WebhookDeliveriesController {
  constructor(private readonly log: DeliveryLogService) {}

  @Get('endpoints/:id/deliveries')
  @SuccessEnvelope()
  @ApiOperation({ summary: "An endpoint's delivery log, newest first, with every attempt" })
  @ApiOkResponse({ type: DeliveriesResponseDto })
  list(@Param() params: IdParamsDto, @Query() query: DeliveriesQueryDto, @CurrentPrincipal() p: Principal) {
    return this.log.list(p.consumerId, params.id, query);
  }

  @Post('deliveries/:deliveryId/retry')
  @HttpCode(HttpStatus.ACCEPTED)
  @SuccessEnvelope()
  @ApiOperation({
    summary: 'Sends a failed delivery again',
    description:
      'Same deliveryId and body, a fresh retry schedule; past attempts stay in the log. An expired delivery (or a failed one past its expiry) is a 409; any other status a 400.',
  })
  @ApiAcceptedResponse({ type: DeliveryResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The delivery has expired' })
  retry(@Param() params: DeliveryIdParamsDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.log.retry(p.consumerId, params.deliveryId);
  }

  @Post('endpoints/:id/replay')
  @HttpCode(HttpStatus.ACCEPTED)
  @SuccessEnvelope()
  @ApiOperation({ summary: 'Sends again every failed delivery of the endpoint since a time (at most 30 days back) that has not expired' })
  @ApiAcceptedResponse({ type: ReplayResponseDto })
  replay(@Param() params: IdParamsDto, @Body() body: ReplayBodyDto, @Query() _q: NoQueryDto, @CurrentPrincipal() p: Principal) {
    return this.log.replay(p.consumerId, params.id, body.since);
  }
}
