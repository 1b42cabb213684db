import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { Type } from 'class-transformer';
import {
  DELIVERY_STATUSES,
  EVENT_TYPES,
  MAX_RULE_ADDRESSES,
  MAX_RULE_MARKETS,
  MIN_LARGE_ORDER_USD,
  RULE_ADDRESSES,
  type DeliveryStatus,
  type EventType,
} from '#alerts';
import { NextCursor, PageLimit, PlainIntegerId } from '../http/query-fields.js';

// Bodies are checked by the alerts library (its rules name each bad field); the DTOs only list the
// fields a body may have, so an unknown one is a 400 like everywhere else.

export class IdParamsDto {
  @ApiProperty({ example: 12, description: 'The id the create call returned' })
  // Registered bottom-up: a non-integer is reported as such before the range is checked.
  @Max(2_147_483_647)
  @Min(1)
  @PlainIntegerId()
  id: number;
}

export class DeliveryIdParamsDto {
  @ApiProperty({ example: 'a3f1...', description: "The delivery's `deliveryId` (64 hex digits)" })
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'deliveryId must be 64 lower-case hex digits' })
  deliveryId: string;
}

export class EndpointBodyDto {
  @ApiPropertyOptional({
    type: String,
    example: 'https://example.com/tidewatch',
    description: 'The receiver: an absolute https:// URL of at most 2048 characters (required on create)',
  })
  @Allow()
  url?: unknown;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Signing secret, 8 to 256 printable characters; never shown again. On update, null removes it.',
  })
  @Allow()
  secretKey?: unknown;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'A note of at most 500 characters; null removes it' })
  @Allow()
  description?: unknown;

  @ApiPropertyOptional({ type: Boolean, description: 'Update only: the pause switch (deliveries are held while paused)' })
  @Allow()
  paused?: unknown;
}

export class EndpointDto {
  @ApiProperty() id: number;
  @ApiProperty() url: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({
    enum: ['active', 'paused', 'suspended'],
    description: 'suspended after 100 failed attempts in a row, 5 days without a success while failing, or a 410; resume lifts it',
  })
  status: string;
  @ApiProperty({ description: 'Whether deliveries are signed (the secret itself is never returned)' }) hasSecret: boolean;
  @ApiProperty({ nullable: true, type: String }) suspendedReason: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class EndpointResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: EndpointDto }) data: EndpointDto;
}

export class EndpointsResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: [EndpointDto] }) data: EndpointDto[];
}

class HealthWindowDto {
  @ApiProperty() attempts: number;
  @ApiProperty() successes: number;
  @ApiProperty() failures: number;
  @ApiProperty({ nullable: true, type: Number, description: 'successes / attempts; null without attempts' }) successRate: number | null;
}

class LatencyDto {
  @ApiProperty({ nullable: true, type: Number, description: 'Median attempt duration over 24 h (continuous percentile), ms' }) p50:
    number | null;
  @ApiProperty({ nullable: true, type: Number }) p95: number | null;
}

export class EndpointHealthDto {
  @ApiProperty({ enum: ['active', 'paused', 'suspended'] }) state: string;
  @ApiProperty() consecutiveFailures: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastSuccessAt: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastFailureAt: string | null;
  @ApiProperty({ type: HealthWindowDto }) lastHour: HealthWindowDto;
  @ApiProperty({ type: HealthWindowDto }) lastDay: HealthWindowDto;
  @ApiProperty({ type: LatencyDto }) latencyMs: LatencyDto;
}

export class EndpointHealthResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: EndpointHealthDto }) data: EndpointHealthDto;
}

export class DeliveriesQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsIn(DELIVERY_STATUSES as unknown as string[])
  @IsOptional()
  status?: DeliveryStatus;

  @PageLimit(200, 'Deliveries per page (default 50)', 50)
  limit?: number;

  @NextCursor()
  nextCursor?: string;
}

class AttemptDto {
  @ApiProperty({ description: 'Counted across retries of the delivery' }) attempt: number;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty() durationMs: number;
  @ApiProperty({ nullable: true, type: Number }) statusCode: number | null;
  @ApiProperty({ enum: ['delivered', 'retryable', 'permanent', 'gone'] }) outcome: string;
  @ApiProperty({ nullable: true, type: String, example: 'HTTP 503' }) error: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The first 2 KB of the answer' }) responseBody: string | null;
}

export class DeliveryDto {
  @ApiProperty() deliveryId: string;
  @ApiProperty({ description: 'The rule that matched' }) eventId: number;
  @ApiProperty({ enum: EVENT_TYPES }) eventType: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: string;
  @ApiProperty({ nullable: true, type: String, enum: ['endpoint_paused', 'endpoint_suspended', 'usage_limit'] }) heldReason: string | null;
  @ApiProperty({ description: 'Attempts in the current schedule (a manual retry starts a new one)' }) attemptCount: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) nextAttemptAt: string | null;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) deliveredAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When it stops being sent (price_crossing, large_market_order: an hour after the occurrence); null: never',
  })
  expiresAt: string | null;
  @ApiProperty({ nullable: true, type: String }) lastError: string | null;
  @ApiProperty({ type: Object, description: 'The `data` of the delivery' }) payload: unknown;
  @ApiProperty({ type: [AttemptDto] }) attempts: AttemptDto[];
}

class DeliveriesPageDto {
  @ApiProperty({ type: [DeliveryDto], description: 'Newest first' }) deliveries: DeliveryDto[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
}

export class DeliveriesResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: DeliveriesPageDto }) data: DeliveriesPageDto;
}

export class DeliveryResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: DeliveryDto }) data: DeliveryDto;
}

export class ReplayBodyDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'Failed deliveries created at or after this time (within 30 days) and not past their expiry are sent again',
  })
  @Allow()
  since: unknown;
}

class ReplayedDto {
  @ApiProperty() replayed: number;
}

export class ReplayResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: ReplayedDto }) data: ReplayedDto;
}

/** `a`, `a and b`, `a, b and c`. */
const inWords = (types: readonly string[]) =>
  types.length < 2 ? types.join('') : `${types.slice(0, -1).join(', ')} and ${types[types.length - 1]}`;
// From the validator's own table, so the description of `addresses` says what the validator does.
const typesWhoseAddressesAre = (...modes: Array<(typeof RULE_ADDRESSES)[EventType]>) =>
  inWords(EVENT_TYPES.filter((type) => modes.includes(RULE_ADDRESSES[type])));

/**
 * Each type's filters as the description of `filters` lists them, in its order (null: the type takes
 * none); types in a row with the same filters share an entry. A new type does not compile without one.
 */
const FILTERS_BY_TYPE: Record<EventType, string | null> = {
  position_activity: '{coin: [markets]}',
  twap_execution: '{coin: [markets]}',
  twap_lifecycle: '{coin: [markets]}',
  liquidation: '{markets, thresholdUsd (> 0), side: long|short|both}',
  large_market_order: `{markets, thresholdUsd (required, >= ${MIN_LARGE_ORDER_USD}), direction: buy|sell|both}`,
  ledger_update: '{types: [deposit|withdraw], amount: {eq|gte|gt|lte|lt: decimal string}}',
  price_crossing: '{market (required), threshold (required, > 0), direction: above|below|both}',
  state_updated: null,
};

function filtersByType(): string {
  const entries: Array<{ types: string[]; filters: string }> = [];
  for (const [type, filters] of Object.entries(FILTERS_BY_TYPE)) {
    if (filters === null) continue;
    const last = entries[entries.length - 1];
    if (last?.filters === filters) last.types.push(type);
    else entries.push({ types: [type], filters });
  }
  return entries.map(({ types, filters }) => `${types.join(', ')}: ${filters}`).join('; ');
}

export class RuleBodyDto {
  @ApiPropertyOptional({ enum: EVENT_TYPES, description: 'Required on create; cannot change' })
  @Allow()
  eventType?: unknown;

  @ApiPropertyOptional({ type: 'integer', description: 'The id of one of your webhook endpoints (required on create)' })
  @Allow()
  webhookEndpointId?: unknown;

  @ApiPropertyOptional({
    type: [String],
    description:
      `Wallet addresses (0x + 40 hex digits, any case, no repeats): 1 to ${MAX_RULE_ADDRESSES} for ${typesWhoseAddressesAre('required')}; ` +
      `up to ${MAX_RULE_ADDRESSES} (none = exchange-wide) for ${typesWhoseAddressesAre('optional')}; ` +
      `not accepted by ${typesWhoseAddressesAre('not used', 'not supported')}`,
  })
  @Allow()
  addresses?: unknown;

  @ApiPropertyOptional({
    type: Object,
    description:
      `By type: ${filtersByType()}. Market lists: 1 to ${MAX_RULE_MARKETS} unique names. ` +
      'Decimals are strings. Omitted direction and side are both.',
    example: { types: ['deposit'], amount: { gte: '1000' } },
  })
  @Allow()
  filters?: unknown;

  @ApiPropertyOptional({ type: Boolean, description: 'Update only: pause or resume the rule' })
  @Allow()
  paused?: unknown;
}

export class RulesQueryDto {
  @ApiPropertyOptional({ enum: EVENT_TYPES })
  @IsIn(EVENT_TYPES as unknown as string[])
  @IsOptional()
  eventType?: string;

  @ApiPropertyOptional()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  @Type(() => Number)
  @IsOptional()
  webhookEndpointId?: number;
}

export class RuleDto {
  @ApiProperty({ description: 'Arrives on every delivery as `eventId` and `x-event-id`' }) id: number;
  @ApiProperty({ enum: EVENT_TYPES }) eventType: string;
  @ApiProperty() webhookEndpointId: number;
  @ApiProperty({ type: [String], description: 'Lower case' }) addresses: string[];
  @ApiProperty({ type: Object, description: 'As given, with defaults filled in' }) filters: Record<string, unknown>;
  @ApiProperty() paused: boolean;
  @ApiProperty({ format: 'date-time', description: 'The rule sees occurrences from this time on' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class RuleResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: RuleDto }) data: RuleDto;
}

export class RulesResponseDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: [RuleDto] }) data: RuleDto[];
}
