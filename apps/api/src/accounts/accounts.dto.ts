import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { PositionDto } from '../positions/positions.dto.js';
import { SegmentDto } from '../segments/segments.dto.js';
import { WalletProfileDto } from '../wallets/wallets.dto.js';

const WALLET_ADDRESS = /^0x[0-9a-f]{40}$/i;

export class AccountWalletParamsDto {
  @ApiProperty({ example: '0x0000000000000000000000000000000000000001', description: 'Wallet address: 0x and 40 hex digits, any case' })
  @IsString()
  @Matches(WALLET_ADDRESS, { message: 'address must be 0x followed by 40 hex digits' })
  address: string;
}

export class WalletDetailDto {
  @ApiProperty({ type: WalletProfileDto }) wallet: WalletProfileDto;
  @ApiProperty({ type: [SegmentDto], description: 'Its two cohorts: the size cohort, then the pnl cohort (the ids of wallet.segments)' })
  segments: SegmentDto[];
  @ApiProperty({
    type: [PositionDto],
    description: 'Its open positions, the records of GET /api/external/positions, newest openTime first',
  })
  positions: PositionDto[];
  @ApiProperty({ description: 'Whether the caller keeps this wallet among its favourite accounts' }) isFavorite: boolean;
}

/** The body `@SuccessEnvelope()` makes of the handler's WalletDetailDto. */
export class WalletDetailResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: WalletDetailDto }) data: WalletDetailDto;
}
