import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiInternalServerErrorResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'limit' }) field: string;
  @ApiProperty({ example: 'limit must not be greater than 16' }) message: string;
}

export class ErrorResponseDto {
  @ApiProperty({ enum: ['error'] }) status: 'error';
  @ApiProperty({ example: 'Unauthorized' }) message: string;
  @ApiPropertyOptional({ description: 'Present on 500 and 503: quote it when reporting the problem' }) requestId?: string;
}

export class ValidationErrorResponseDto {
  @ApiProperty({ enum: ['error'] }) status: 'error';
  @ApiProperty({ example: 'Invalid parameters: limit' }) message: string;
  @ApiProperty({ type: [FieldErrorDto] }) errors: FieldErrorDto[];
}

export class QuotaErrorResponseDto {
  @ApiProperty({ enum: ['rate_limit_exceeded', 'usage_limit_exceeded'] }) error: string;
  @ApiProperty() message: string;
  @ApiProperty({ description: 'Seconds to wait before retrying' }) retry_after: number;
}

/** The error responses every authenticated route can give. */
export const ApiStandardErrors = () =>
  applyDecorators(
    ApiBadRequestResponse({ type: ValidationErrorResponseDto, description: 'A parameter is invalid or unknown' }),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Missing, invalid, expired or revoked bearer token' }),
    ApiTooManyRequestsResponse({ type: QuotaErrorResponseDto, description: 'Rate limit or usage tokens exhausted' }),
    ApiInternalServerErrorResponse({ type: ErrorResponseDto }),
  );
