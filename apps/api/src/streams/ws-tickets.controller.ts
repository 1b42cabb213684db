import { Controller, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiForbiddenResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, WsTicketService } from '#auth';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { SuccessEnvelope } from '../http/success-envelope.interceptor.js';
import { WsTicketDto } from './ws-ticket.dto.js';

@ApiTags('Streams')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/ws/tickets')
export class WsTicketsController {
  constructor(private readonly tickets: WsTicketService) {}

  @Post()
  @SuccessEnvelope()
  @ApiOperation({
    summary: 'A single-use ticket for a browser websocket',
    description: 'Connect with `GET /ws?ticket=<ticket>` within 60 seconds; the first connection spends it.',
  })
  @ApiCreatedResponse({ type: WsTicketDto })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'The plan has no websocket streams' })
  issue(@Query() _q: NoQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.tickets.issue(principal);
  }
}
