import { Injectable } from '@nestjs/common';
import { type Segment, SEGMENTS } from '../../segments/segments.js';

export interface ListSegmentsOptions {
  /** Omitted: the API contract's table order (size cohorts smallest first, then pnl cohorts best first). */
  orderBy?: 'id' | 'name';
  order?: 'asc' | 'desc';
  limit?: number;
}

@Injectable()
export class SegmentsService {
  list({ orderBy, order = 'asc', limit }: ListSegmentsOptions = {}): readonly Segment[] {
    if (!orderBy && order === 'asc' && limit === undefined) return SEGMENTS;
    const sorted = [...SEGMENTS];
    if (orderBy === 'id') sorted.sort((a, b) => a.id - b.id);
    if (orderBy === 'name') sorted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (order === 'desc') sorted.reverse();
    return sorted.slice(0, limit ?? sorted.length);
  }
}
