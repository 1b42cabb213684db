import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public, type SessionAccount } from '#auth';
import { CsrfGuard } from './csrf.guard.js';
import { DashboardKeysService } from './dashboard-keys.service.js';
import { CreateKeyDto } from './dashboard.dto.js';
import { SessionGuard, SignedInAccount } from './session.guard.js';

// Signed in by the session cookie rather than a bearer token; another account's key is a 404, like a missing one.
@ApiExcludeController()
@Public()
@UseGuards(CsrfGuard, SessionGuard)
@Controller('dashboard/api/keys')
export class DashboardKeysController {
  constructor(private readonly keys: DashboardKeysService) {}

  @Get()
  list(@SignedInAccount() account: SessionAccount) {
    return this.keys.list(account.consumerId);
  }

  @Post()
  create(@Body() body: CreateKeyDto, @SignedInAccount() account: SessionAccount) {
    return this.keys.create(account.consumerId, body.label, body.expiresInDays);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  revoke(@Param('id') id: string, @SignedInAccount() account: SessionAccount) {
    return this.keys.revoke(account.consumerId, id);
  }
}
