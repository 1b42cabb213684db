import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** The signed part of a download link; anything missing or wrong is refused with a 403 by the store. */
export class ExportFileQueryDto {
  @ApiPropertyOptional({ description: 'Epoch seconds after which the link is refused' })
  @IsOptional()
  @IsString()
  expires?: string;

  @ApiPropertyOptional({ description: 'HMAC-SHA256 (hex) of the file key and the expiry' })
  @IsOptional()
  @IsString()
  signature?: string;
}
