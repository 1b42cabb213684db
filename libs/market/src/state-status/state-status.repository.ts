import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StateStatusEntity } from '../../../database/src/index.js';

export interface StateStatusRow {
  latestHeight: number | null;
  latestStateTime: Date | null;
  processedHeight: number | null;
  processedStateTime: Date | null;
  processedAt: Date | null;
}

const toNumber = (value: string | null): number | null => (value === null ? null : Number(value));

@Injectable()
export class StateStatusRepository {
  constructor(private readonly dataSource: DataSource) {}

  async read(): Promise<StateStatusRow | null> {
    const row = await this.dataSource.getRepository(StateStatusEntity).findOneBy({ id: 1 });
    if (!row) return null;
    return {
      latestHeight: toNumber(row.latestHeight),
      latestStateTime: row.latestStateTime,
      processedHeight: toNumber(row.processedHeight),
      processedStateTime: row.processedStateTime,
      processedAt: row.processedAt,
    };
  }
}
