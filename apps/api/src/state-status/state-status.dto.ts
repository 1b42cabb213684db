import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class StateStatusDto {
  @ApiProperty({ type: Number, nullable: true, description: 'Block height of the newest processed exchange state' }) height: number | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Exchange time of that state' }) stateTime: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When its processing finished' }) processedAt:
    string | null;
  @ApiProperty({ description: 'False while a newer state has been seen but is not yet processed' }) isLatestProcessed: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'Seconds between that state and now' }) lagSeconds: number | null;
}

/** The body `@SuccessEnvelope()` makes of the handler's StateStatusDto (with `message` before any state exists). */
export class StateStatusResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: StateStatusDto }) data: StateStatusDto;
  @ApiPropertyOptional({ example: 'No exchange state has been processed yet.' }) message?: string;
}
