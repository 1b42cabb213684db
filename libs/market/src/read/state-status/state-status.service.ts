import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTime } from '#database';
import { WithMessage } from '../with-message.js';
import { StateStatusQueries } from './state-status.queries.js';

export interface StateStatus {
  height: number | null;
  stateTime: string | null;
  processedAt: string | null;
  isLatestProcessed: boolean;
  lagSeconds: number | null;
}

@Injectable()
export class StateStatusService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: StateStatusQueries,
  ) {}

  /**
   * The newest processed exchange state. `isLatestProcessed` is false while a newer state has been
   * seen but not yet processed; `lagSeconds` is how far the processed state's exchange time is
   * behind `now`. Before any state exists every field is null, with a message saying so.
   */
  async status(now = Date.now()): Promise<StateStatus | WithMessage<StateStatus>> {
    const row = await this.queries.read(this.dataSource);
    if (!row || row.processedHeight === null || row.processedStateTime === null) {
      return new WithMessage<StateStatus>(
        { height: null, stateTime: null, processedAt: null, isLatestProcessed: false, lagSeconds: null },
        'No exchange state has been processed yet.',
      );
    }
    return {
      height: row.processedHeight,
      stateTime: isoTime(row.processedStateTime),
      processedAt: row.processedAt === null ? null : isoTime(row.processedAt),
      isLatestProcessed: row.latestHeight === null || row.processedHeight >= row.latestHeight,
      lagSeconds: Math.max(0, Math.round((now - row.processedStateTime) / 1000)),
    };
  }
}
