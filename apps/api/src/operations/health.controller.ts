import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '#auth';
import { DependencyHealthService } from '#runtime';
import { HealthResponseDto } from './health.dto.js';

@ApiTags('Operations')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: DependencyHealthService) {}

  @Get()
  @ApiOperation({ summary: 'Postgres and Redis reachability (no token needed)' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto })
  async check(@Res({ passthrough: true }) res: Response) {
    const { healthy, postgres, redis } = await this.health.check();
    res.status(healthy ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return { status: healthy ? 'ok' : 'degraded', checks: { postgres, redis } };
  }
}
