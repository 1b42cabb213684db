import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { WalletProfileDto } from '../wallets/wallets.dto.js';

const WALLET_ADDRESS = /^0x[0-9a-f]{40}$/i;

export class FavoriteAddressParamsDto {
  @ApiProperty({ example: '0x0000000000000000000000000000000000000001', description: 'Wallet address: 0x and 40 hex digits, any case' })
  @IsString()
  @Matches(WALLET_ADDRESS, { message: 'address must be 0x followed by 40 hex digits' })
  address: string;
}

export class FavoriteDto {
  @ApiProperty({ example: '0x0000000000000000000000000000000000000001', description: 'Lower case' }) address: string;
  @ApiProperty({ format: 'date-time', description: 'When the consumer first added it; adding it again keeps this time' }) createdAt: string;
  @ApiProperty({ type: WalletProfileDto, description: 'The wallet as of the latest state update' }) wallet: WalletProfileDto;
}

/** The body `@SuccessEnvelope()` makes of the list. */
export class FavoritesResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: [FavoriteDto], description: 'Newest first (address ascending between equal times)' }) data: FavoriteDto[];
}

/** The body `@SuccessEnvelope()` makes of one favourite. */
export class FavoriteResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: FavoriteDto }) data: FavoriteDto;
}
