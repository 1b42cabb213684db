import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StateStatusService } from '../../../../libs/market/src/index.js';
import { ApiStandardErrors } from '../dto/error-responses.dto.js';
import { NoQueryDto } from '../dto/no-query.dto.js';
import { StateStatusResponseDto } from '../dto/state-status.dto.js';

@ApiTags('State')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/tidewatch/state')
export class StateStatusController {
  constructor(private readonly states: StateStatusService) {}

  @Get('status')
  @ApiOperation({ summary: 'Whether the latest exchange state update has been processed' })
  @ApiOkResponse({ type: StateStatusResponseDto })
  async status(@Query() _query: NoQueryDto) {
    return { status: 'success', ...(await this.states.status()) };
  }
}
