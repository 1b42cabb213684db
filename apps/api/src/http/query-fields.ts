import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, Max, Min } from 'class-validator';
import { queryTimeMessage } from '#market';
import { COIN_PATTERN, CoinCharacters, CoinLength, MAX_COIN_LENGTH } from './path-params.js';

// The query and path fields most routes share, declared once so they validate and read the same
// everywhere. applyDecorators registers in the order given, the order stacked decorators register
// bottom-up: IsInt comes first, so with the pipe's stopAtFirstError a non-number is reported as such,
// not as out of range.

/** An optional page size from 1 to `max`. */
export function PageLimit(max: number, description: string, defaultValue = max) {
  return applyDecorators(
    IsInt(),
    Min(1),
    Max(max),
    Type(() => Number),
    IsOptional(),
    ApiPropertyOptional({ minimum: 1, maximum: max, default: defaultValue, description }),
  );
}

/** An optional market filter, held to the characters and length of a path's coin so anything else is a 400 naming it. */
export function QueryCoin(description: string) {
  return applyDecorators(
    IsString(),
    IsNotEmpty(),
    CoinLength(),
    CoinCharacters(),
    IsOptional(),
    ApiPropertyOptional({ example: 'BTC', maxLength: MAX_COIN_LENGTH, pattern: COIN_PATTERN.source, description }),
  );
}

/** The `nextCursor` a previous page returned: opaque, signed; an altered one is a 400 from the service. */
export function NextCursor(description = 'The `nextCursor` of the previous page (opaque; an altered one is a 400)') {
  return applyDecorators(IsString(), IsOptional(), ApiPropertyOptional({ description }));
}

/** An optional ISO 8601 time (a time without a zone is UTC, as the services read it). */
export function QueryTime(field: string, description: string) {
  return applyDecorators(
    IsISO8601({ strict: true }, { message: queryTimeMessage(field) }),
    IsOptional(),
    ApiPropertyOptional({ format: 'date-time', description }),
  );
}

/** A path id of plain digits: `1e1`, `0x10` or `1.0` are a 400, not ids 10, 16 or 1. */
export function PlainIntegerId() {
  return applyDecorators(
    IsInt(),
    Transform(({ value }) => (typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : value)),
  );
}

/** An optional number of records to skip, from 0 to `max` (a bound that keeps Postgres' OFFSET in range). */
export function PageOffset(max: number, description: string) {
  return applyDecorators(
    IsInt(),
    Min(0),
    Max(max),
    Type(() => Number),
    IsOptional(),
    ApiPropertyOptional({ minimum: 0, maximum: max, default: 0, description }),
  );
}
