import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '#auth';
import type { Principal } from '#auth';
import { FAVORITES_MAX, FavoritesService, FavoritesWriter } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { SuccessEnvelope } from '../http/success-envelope.interceptor.js';
import { FavoriteAddressParamsDto, FavoriteResponseDto, FavoritesResponseDto } from './favorites.dto.js';

// Favourites belong to the calling consumer (its token): another consumer's are never visible.
@ApiTags('Account')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/favorites/accounts')
export class FavoritesController {
  constructor(
    private readonly favorites: FavoritesService,
    private readonly writer: FavoritesWriter,
  ) {}

  @Get()
  @SuccessEnvelope()
  @ApiOperation({ summary: "The caller's favourite accounts with their wallet profiles, newest first" })
  @ApiOkResponse({ type: FavoritesResponseDto })
  list(@Query() _query: NoQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.favorites.list(principal.consumerId);
  }

  @Put(':address')
  @SuccessEnvelope()
  @ApiOperation({
    summary: "Adds a wallet to the caller's favourite accounts (idempotent)",
    description:
      `200 with the favourite, whether it was just added or already there (then its first createdAt is kept). The wallet must be one the ` +
      `service knows (else 404), so its profile can be shown; its favoriteCount counts each consumer once. At most ${FAVORITES_MAX} ` +
      'favourites per consumer: one more is a 400.',
  })
  @ApiOkResponse({ type: FavoriteResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'A wallet the service has not seen' })
  add(@Param() params: FavoriteAddressParamsDto, @Query() _query: NoQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.writer.add(principal.consumerId, params.address);
  }

  @Delete(':address')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: "Removes a wallet from the caller's favourite accounts (idempotent: 204 also when it was not one)" })
  @ApiNoContentResponse({ description: 'Removed, or was not a favourite' })
  async remove(
    @Param() params: FavoriteAddressParamsDto,
    @Query() _query: NoQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.writer.remove(principal.consumerId, params.address);
  }
}
