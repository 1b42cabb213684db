import { Injectable } from '@nestjs/common';
import { type Cohort, COHORTS } from '../../cohorts/cohorts.js';

export interface ListCohortsOptions {
  /** Omitted: the API contract's table order (size cohorts smallest first, then pnl cohorts best first). */
  orderBy?: 'id' | 'name';
  order?: 'asc' | 'desc';
  limit?: number;
}

@Injectable()
export class CohortsService {
  list({ orderBy, order = 'asc', limit }: ListCohortsOptions = {}): readonly Cohort[] {
    if (!orderBy && order === 'asc' && limit === undefined) return COHORTS;
    const sorted = [...COHORTS];
    if (orderBy === 'id') sorted.sort((a, b) => a.id - b.id);
    if (orderBy === 'name') sorted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (order === 'desc') sorted.reverse();
    return sorted.slice(0, limit ?? sorted.length);
  }
}
