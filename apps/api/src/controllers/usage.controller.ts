import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, UsageMeterService } from '../../../../libs/auth/src/index.js';
import type { Principal } from '../../../../libs/auth/src/index.js';
import { ApiStandardErrors } from '../dto/error-responses.dto.js';
import { NoQueryDto } from '../dto/no-query.dto.js';
import { UsageResponseDto } from '../dto/usage.dto.js';

@ApiTags('Account')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/usage')
export class UsageController {
  constructor(private readonly meter: UsageMeterService) {}

  @Get()
  @ApiOperation({ summary: "The caller's plan, usage-token period, tokens used and when they reset" })
  @ApiOkResponse({ type: UsageResponseDto })
  async usage(@Query() _query: NoQueryDto, @CurrentPrincipal() principal: Principal) {
    return { status: 'success', data: await this.meter.report(principal.limits) };
  }
}
