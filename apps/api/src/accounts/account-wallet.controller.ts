import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '#auth';
import type { Principal } from '#auth';
import { WalletDetailService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { SuccessEnvelope } from '../http/success-envelope.interceptor.js';
import { AccountWalletParamsDto, WalletDetailResponseDto } from './accounts.dto.js';

@ApiTags('Account')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/wallets')
export class AccountWalletController {
  constructor(private readonly wallets: WalletDetailService) {}

  @Get(':address')
  @SuccessEnvelope()
  @ApiOperation({
    summary: 'One wallet for the custom dashboard: its profile, its cohorts and its open positions',
    description: 'As of the latest state update. `isFavorite` tells whether the caller keeps it among its favourite accounts.',
  })
  @ApiOkResponse({ type: WalletDetailResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'A wallet the service has not seen' })
  detail(@Param() params: AccountWalletParamsDto, @Query() _query: NoQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.wallets.detail(params.address, principal.consumerId);
  }
}
