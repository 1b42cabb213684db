import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class DependencyHealthDto {
  @ApiProperty({ enum: ['up', 'down'] }) status: 'up' | 'down';
  @ApiProperty({ description: 'Round-trip time of the check' }) latencyMs: number;
  @ApiPropertyOptional() error?: string;
}

export class HealthChecksDto {
  @ApiProperty({ type: DependencyHealthDto }) postgres: DependencyHealthDto;
  @ApiProperty({ type: DependencyHealthDto }) redis: DependencyHealthDto;
}

export class HealthResponseDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status: 'ok' | 'degraded';
  @ApiProperty({ type: HealthChecksDto }) checks: HealthChecksDto;
}
