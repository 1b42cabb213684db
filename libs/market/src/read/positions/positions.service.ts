import { queryTimeMs } from '../query-time.js';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JsonText, KeysetCursorCodec } from '#database';
import { InvalidInputError, NotFoundError } from '#errors';
import { COHORTS } from '../../cohorts/cohorts.js';
import { CoinsService } from '../coins/coins.service.js';
import { PositionsQueries } from './positions.queries.js';
import type { PositionsPageRequest } from './positions.types.js';

/** The cursor's list name: a cursor of another list is refused. */
const LIST = 'positions';
const DEFAULT_LIMIT = 500;
const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class PositionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: PositionsQueries,
    private readonly coins: CoinsService,
    private readonly cursors: KeysetCursorCodec,
  ) {}

  /**
   * One page of historical positions open at some moment of [start, end], newest open time first, as
   * the body `{positions: PositionRecord[], nextCursor}` (PositionsPage).
   * The cursor carries the window it was issued for, so walking the pages of a request whose window
   * defaulted to "now" never shifts it (which would repeat or skip positions); a page request that
   * names another start or end than its cursor's is an InvalidInputError on `nextCursor`.
   */
  async page(request: PositionsPageRequest): Promise<JsonText> {
    const cursor =
      request.nextCursor === undefined
        ? null
        : this.cursors.decode(LIST, request.nextCursor, ['number', 'number', 'number', 'number'] as const);

    let end = request.end === undefined ? undefined : queryTimeMs('end', request.end);
    let start = request.start === undefined ? undefined : queryTimeMs('start', request.start);
    if (cursor) {
      const [, , cursorStart, cursorEnd] = cursor;
      if ((start !== undefined && start !== cursorStart) || (end !== undefined && end !== cursorEnd)) {
        throw new InvalidInputError(
          'nextCursor',
          'nextCursor continues another window: send the same start and end as the first page, or none',
        );
      }
      [start, end] = [cursorStart, cursorEnd];
    }
    end ??= Date.now();
    start ??= end - DEFAULT_WINDOW_MS;
    if (end < start) throw new InvalidInputError('end', 'end must not be before start');
    // Bad input is a 400 before anything is looked up; then an unknown cohort or coin is a 404.
    const cohort = request.segmentId === undefined ? undefined : COHORTS.find((c) => c.id === request.segmentId);
    if (request.segmentId !== undefined && !cohort) throw new NotFoundError(`Unknown segment: ${request.segmentId}`);
    const coin = request.coin === undefined ? undefined : await this.coins.resolve(request.coin);

    const limit = request.limit ?? DEFAULT_LIMIT;
    const page = await this.queries.page(this.dataSource, {
      start,
      end,
      coin,
      // Addresses are stored in lower case; a repeated one is asked once.
      addresses: request.address && [...new Set(request.address.map((a) => a.toLowerCase()))],
      // `open` is the record's state now (closeTime null or not), as the contract's states define it, not at `end`.
      open: request.open,
      cohort,
      limit,
      after: cursor && { openTime: cursor[0], id: cursor[1] },
    });
    return JsonText.object({ positions: page.json, nextCursor: page.next && this.cursors.encode(LIST, [...page.next, start, end]) });
  }
}
