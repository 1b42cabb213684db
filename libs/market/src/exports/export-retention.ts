import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ExportFilesRepository } from './export-files.repository.js';
import { ExportStore } from './export-store.js';

/** Rows handled per transaction of a pass. */
const BATCH = 200;

/**
 * Deletes the export files no one can use any more: built from a state update a newer one has replaced,
 * and past the expiry of the last link given out for them. The current file of every export stays (the
 * next request would only build it again), and so does a replaced one while a link to it still works.
 */
@Injectable()
export class ExportRetention {
  constructor(
    private readonly dataSource: DataSource,
    private readonly files: ExportFilesRepository,
    private readonly store: ExportStore,
  ) {}

  /** One pass at `nowMs`; returns how many files were deleted. */
  async sweep(nowMs = Date.now()): Promise<number> {
    const now = new Date(nowMs).toISOString();
    let deleted = 0;
    for (;;) {
      // The files go before the rows' commit: a file the store fails to delete keeps its row for the next pass.
      const keys = await this.dataSource.transaction(async (q) => {
        const lapsed = await this.files.deleteLapsed(q, now, BATCH);
        for (const key of lapsed) await this.store.remove(key);
        return lapsed;
      });
      deleted += keys.length;
      if (keys.length < BATCH) return deleted;
    }
  }
}
