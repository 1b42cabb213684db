import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StateStatusService } from '#market';
import { ApiStandardErrors } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { SuccessEnvelope } from '../http/success-envelope.interceptor.js';
import { StateStatusResponseDto } from './state-status.dto.js';

@ApiTags('State')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/tidewatch/state')
export class StateStatusController {
  constructor(private readonly states: StateStatusService) {}

  @Get('status')
  @SuccessEnvelope()
  @ApiOperation({ summary: 'Whether the latest exchange state update has been processed' })
  @ApiOkResponse({ type: StateStatusResponseDto })
  status(@Query() _query: NoQueryDto) {
    return this.states.status();
  }
}
