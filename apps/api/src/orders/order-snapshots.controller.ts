import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrderSnapshotPagesService } from '#market';
import { ApiStandardErrors, ErrorResponseDto } from '../http/error-responses.dto.js';
import { NoQueryDto } from '../http/no-query.dto.js';
import { OrderSnapshotPageDto, OrderSnapshotQueryDto, SnapshotTimeParamsDto } from './order-snapshots.dto.js';
import { CachedRead } from '../http/read-cache/read-cache.interceptor.js';

const PAGE_RULES =
  'Every order open at the snapshot time, whenever it was placed, by address then oid. Filters combine with AND; `start` and `end` are on the ' +
  "order's creation `timestamp`, both inclusive.";

// The two fixed paths are declared before `:snapshotTime`, so they are never read as a snapshot time.
@ApiTags('Orders')
@ApiBearerAuth()
@ApiStandardErrors()
@Controller('api/external/orders/5m-snapshots')
export class OrderSnapshotsController {
  constructor(private readonly snapshots: OrderSnapshotPagesService) {}

  @Get('latest-snapshot-timestamp')
  @CachedRead(OrderSnapshotPagesService)
  // Express sends a returned string as text/html: the contract's body is a JSON string.
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOperation({
    summary: 'The time of the newest open-order snapshot',
    description: 'A JSON string, ISO 8601 with milliseconds. Use it to see a new snapshot before fetching `/latest`.',
  })
  @ApiOkResponse({ schema: { type: 'string', format: 'date-time', example: '2026-03-02T10:05:00.000Z' } })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No snapshot has been taken yet' })
  async latestTimestamp(@Query() _query: NoQueryDto) {
    return JSON.stringify(await this.snapshots.latestTimestamp());
  }

  @Get('latest')
  @CachedRead(OrderSnapshotPagesService)
  @ApiOperation({ summary: 'The open orders of the newest 5-minute snapshot', description: PAGE_RULES })
  @ApiOkResponse({ type: OrderSnapshotPageDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No snapshot has been taken yet, or an unknown coin' })
  latest(@Query() query: OrderSnapshotQueryDto) {
    return this.snapshots.latest(query);
  }

  @Get(':snapshotTime')
  @CachedRead(OrderSnapshotPagesService, { wallClock: true })
  @ApiOperation({ summary: 'The open orders of the 5-minute snapshot at snapshotTime', description: PAGE_RULES })
  @ApiOkResponse({ type: OrderSnapshotPageDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No snapshot was taken at that time, or an unknown coin' })
  at(@Param() params: SnapshotTimeParamsDto, @Query() query: OrderSnapshotQueryDto) {
    return this.snapshots.at(params.snapshotTime, query);
  }
}
