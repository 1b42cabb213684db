import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export class ListSegmentsQueryDto {
  @ApiPropertyOptional({ enum: ['id', 'name'], description: 'Omitted: the SPEC table order (size cohorts, then pnl cohorts)' })
  @IsOptional()
  @IsIn(['id', 'name'])
  orderBy?: 'id' | 'name';

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({ minimum: 1, maximum: 16, default: 16 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(16)
  limit?: number;
}

export class SegmentCriteriaDto {
  @ApiPropertyOptional({ description: 'size cohorts: lower perp-equity bound (USD, inclusive)' }) minSize?: number;
  @ApiPropertyOptional({ description: 'size cohorts: upper perp-equity bound (USD, exclusive)' }) maxSize?: number;
  @ApiPropertyOptional({ description: 'pnl cohorts: lower all-time PnL bound (USD, inclusive)' }) minPnl?: number;
  @ApiPropertyOptional({ description: 'pnl cohorts: upper all-time PnL bound (USD, exclusive)' }) maxPnl?: number;
}

export class SegmentDto {
  @ApiProperty({ minimum: 1, maximum: 16 }) id: number;
  @ApiProperty({ example: 'Shrimp' }) name: string;
  @ApiProperty({ enum: ['size', 'pnl'] }) category: 'size' | 'pnl';
  @ApiProperty({ type: SegmentCriteriaDto, description: 'An absent bound means unbounded' }) criteria: SegmentCriteriaDto;
  @ApiProperty({ example: '🦐' }) emoji: string;
}
