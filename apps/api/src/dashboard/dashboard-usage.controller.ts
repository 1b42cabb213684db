import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ConsumerService, Public, type SessionAccount } from '#auth';
import { SessionGuard, SignedInAccount } from './session.guard.js';

/** The signed-in account's usage tokens this period: the report GET /api/external/usage gives a key. */
@ApiExcludeController()
@Public()
@UseGuards(SessionGuard)
@Controller('dashboard/api/usage')
export class DashboardUsageController {
  constructor(private readonly consumers: ConsumerService) {}

  @Get()
  usage(@SignedInAccount() account: SessionAccount) {
    return this.consumers.usage(account.consumerId);
  }
}
