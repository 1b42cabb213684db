import { Injectable } from '@nestjs/common';
import { StateStatusRepository } from './state-status.repository.js';

export interface StateStatus {
  height: number | null;
  stateTime: string | null;
  processedAt: string | null;
  isLatestProcessed: boolean;
  lagSeconds: number | null;
}

@Injectable()
export class StateStatusService {
  constructor(private readonly repository: StateStatusRepository) {}

  /**
   * The newest processed exchange state. `isLatestProcessed` is false while a newer state has been
   * seen but not yet processed; `lagSeconds` is how far the processed state's exchange time is
   * behind `now`. Before any state exists every field is null (and a message says so).
   */
  async status(now = Date.now()): Promise<{ data: StateStatus; message?: string }> {
    const row = await this.repository.read();
    if (!row || row.processedHeight === null || row.processedStateTime === null) {
      return {
        data: { height: null, stateTime: null, processedAt: null, isLatestProcessed: false, lagSeconds: null },
        message: 'No exchange state has been processed yet.',
      };
    }
    return {
      data: {
        height: row.processedHeight,
        stateTime: row.processedStateTime.toISOString(),
        processedAt: row.processedAt?.toISOString() ?? null,
        isLatestProcessed: row.latestHeight === null || row.processedHeight >= row.latestHeight,
        lagSeconds: Math.max(0, Math.round((now - row.processedStateTime.getTime()) / 1000)),
      },
    };
  }
}
