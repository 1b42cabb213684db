import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Readable } from 'node:stream';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { EXPORTS_DATA_SOURCE, type SqlRunner } from '#database';
import { NotFoundError } from '#errors';
import { Metrics } from '#runtime';
import { ExportsQueries, type LatestUpdate } from '../read/exports/exports.queries.js';
import { EXPORT_LINK_TTL_SECONDS } from './export-link.signer.js';
import { ExportFilesRepository } from './export-files.repository.js';
import { ExportStore } from './export-store.js';

/** Writes an export's file content from one state update's data, read through `q` (its snapshot). */
export type ExportBuild = (q: SqlRunner, update: LatestUpdate) => Promise<Readable>;

export interface ExportFileRef {
  key: string;
  stateHeight: number;
}

/**
 * One build per export and state update, however many requests ask at once: the requests of this process
 * share one flight per key, and the flights of all api processes queue on the export's advisory lock, after
 * which the store already has the file the first one built. Builds run on the export pool only.
 */
@Injectable()
export class ExportBuilds {
  private readonly flights = new Map<string, Promise<ExportFileRef>>();
  private readonly builds: Counter<'kind'>;

  constructor(
    private readonly dataSource: DataSource,
    @InjectDataSource(EXPORTS_DATA_SOURCE) private readonly exportsDataSource: DataSource,
    private readonly queries: ExportsQueries,
    private readonly files: ExportFilesRepository,
    private readonly store: ExportStore,
    metrics: Metrics,
  ) {
    this.builds = new Counter({
      name: 'tidewatch_export_builds_total',
      help: 'Export files built and written to the store, by kind',
      labelNames: ['kind'],
      registers: [metrics.registry],
    });
  }

  /** The file of `name` (`<kind>/<coin key>`) at the latest state update, built first when the store lacks it. */
  async latest(name: string, extension: 'json' | 'csv', build: ExportBuild): Promise<ExportFileRef> {
    const update = await this.queries.latestUpdate(this.dataSource);
    if (update === null) throw new NotFoundError('No exchange state has been processed yet: exports exist from the first state update on');
    const key = `${name}/${update.height}.${extension}`;
    if (await this.store.has(key)) return { key, stateHeight: update.height };
    let flight = this.flights.get(key);
    if (flight === undefined) {
      flight = this.build(name, extension, build).finally(() => this.flights.delete(key));
      this.flights.set(key, flight);
    }
    return flight;
  }

  private build(name: string, extension: 'json' | 'csv', build: ExportBuild): Promise<ExportFileRef> {
    return this.exportsDataSource.transaction('REPEATABLE READ', async (q) => {
      // The lock is the transaction's first statement, so its snapshot is at least as new as the update the
      // request saw; another process's build of the same export has either committed its file or waits here.
      await this.files.lockBuild(q, name);
      const update = (await this.queries.latestUpdate(q))!;
      const key = `${name}/${update.height}.${extension}`;
      if (!(await this.store.has(key))) {
        // Its row first, so no file is ever in the store without the row retention finds it by.
        const expires = new Date(Date.now() + EXPORT_LINK_TTL_SECONDS * 1000).toISOString();
        await this.files.linked(this.dataSource, key, update.height, expires);
        // The content is streamed while the transaction (and its snapshot) is still open.
        await this.store.write(key, await build(q, update));
        this.builds.inc({ kind: name.split('/')[0] });
      }
      return { key, stateHeight: update.height };
    });
  }
}
