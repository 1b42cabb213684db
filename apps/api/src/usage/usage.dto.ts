import { ApiProperty } from '@nestjs/swagger';

export class UsagePeriodDto {
  @ApiProperty({ format: 'date-time' }) start: string;
  @ApiProperty({ format: 'date-time' }) end: string;
}

export class UsageDto {
  @ApiProperty() consumerId: number;
  @ApiProperty({ enum: ['free', 'tier1', 'tier2', 'tier3', 'tier4'] }) plan: string;
  @ApiProperty({ type: UsagePeriodDto, description: 'UTC day (Free) or calendar month (paid plans)' }) period: UsagePeriodDto;
  @ApiProperty({ description: 'Usage tokens spent in the period, this request included' }) used: number;
  @ApiProperty() limit: number;
  @ApiProperty() remaining: number;
  @ApiProperty({ format: 'date-time' }) resetsAt: string;
}

/** The body `@SuccessEnvelope()` makes of the handler's UsageDto. */
export class UsageResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: UsageDto }) data: UsageDto;
}
