import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, UsageMeterService } from '#auth';
import type { Principal } from '#auth';
import { ApiStandardErrors } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { SuccessEnvelope } from '../http/success-envelope.interceptor.js';
import { UsageResponseDto } from './usage.dto.js';

@ApiTags('Account')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/usage')
export class UsageController {
  constructor(private readonly meter: UsageMeterService) {}

  @Get()
  @SuccessEnvelope()
  @ApiOperation({ summary: "The caller's plan, usage-token period, tokens used and when they reset" })
  @ApiOkResponse({ type: UsageResponseDto })
  usage(@Query() _query: NoQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.meter.report(principal.limits);
  }
}
