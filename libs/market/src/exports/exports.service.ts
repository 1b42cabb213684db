import { Injectable } from '@nestjs/common';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { NotFoundError } from '#errors';
import { CoinsService } from '../read/coins/coins.service.js';
import { jsonNumber, jsonNumberOrNull } from '../read/json-number.js';
import { type EquityRow, ExportsQueries } from '../read/exports/exports.queries.js';
import { heatmapBins, heatmapBinWidth } from '../read/exports/liquidation-heatmap.builder.js';
import { openPositionsCsv } from '../read/exports/open-positions-csv.builder.js';
import { positionBreakdown } from '../read/exports/position-breakdown.builder.js';
import { ExportBuilds, type ExportBuild } from './export-builds.js';
import { ExportFilesRepository } from './export-files.repository.js';
import { coinKey, ExportStore, type SignedLink } from './export-store.js';
import { type ExportFile, LocalDiskExportStore } from './local-disk.export-store.js';

const DAY_MS = 86_400_000;
const EQUITY_COLUMNS = ['totalWalletsEquity', 'perpWalletsEquity', 'spotWalletsEquity', 'stakingWalletsEquity', 'vaultWalletsEquity'];

/**
 * Every export route: the file of the latest state update is built once (ExportBuilds: in one repeatable-read
 * transaction, so it is exactly that update's data), kept in the export store under a key naming the
 * update's height, and reused until the next update; each request gets a new signed link to it, whose
 * expiry is recorded first so retention never deletes a file a link still reaches.
 */
@Injectable()
export class ExportsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: ExportsQueries,
    private readonly coins: CoinsService,
    private readonly store: ExportStore,
    private readonly builds: ExportBuilds,
    private readonly files: ExportFilesRepository,
  ) {}

  /** `{coin, heatmap: [bins]}`: the coin's open positions by liquidation price, in equal bins from 0. */
  async liquidationHeatmap(coin: string): Promise<SignedLink> {
    const known = await this.coins.resolve(coin);
    return this.exported(`liquidation-heatmap/${coinKey(known)}`, 'json', async (q) => {
      const highest = await this.queries.highestLiquidationPrice(q, known);
      if (highest === null) return json({ coin: known, heatmap: [] });
      const width = heatmapBinWidth(highest);
      return json({ coin: known, heatmap: heatmapBins(known, width, highest, await this.queries.liquidationBins(q, known, width)) });
    });
  }

  /** `{athData, data24HoursAgo, history}` of the summed wallet equity, one row per state update, newest first. */
  async walletsEquityChart(): Promise<SignedLink> {
    return this.exported('wallets-equity/all', 'json', async (q, update) => {
      const { ath, dayAgo, history } = await this.queries.equityRows(q, new Date(Date.parse(update.stateTime) - DAY_MS).toISOString());
      // With less than a day of history, "24 hours ago" is the oldest row there is.
      const day = dayAgo ?? history.at(-1) ?? null;
      return json({
        athData: { columns: EQUITY_COLUMNS, data: ath ? equityValues(ath) : [] },
        data24HoursAgo: { columns: EQUITY_COLUMNS, data: day ? equityValues(day) : [] },
        history: {
          columns: ['timestamp', ...EQUITY_COLUMNS],
          data: history.map((r) => [r.created_at.toISOString(), ...equityValues(r)]),
        },
      });
    });
  }

  /**
   * `{coin, createdAt, breakdownBySize}`: the coin's open positions by size (USD value, in the size cohorts'
   * ranges) at the latest update, beside the same figures 24 hours earlier (the oldest update while the
   * history is shorter).
   */
  async positionBreakdownBySize(coin: string): Promise<SignedLink> {
    const known = await this.coins.resolve(coin);
    return this.exported(`position-breakdown/${coinKey(known)}`, 'json', async (q, update) => {
      const pastTime = await this.queries.updateTimeAtOrBefore(q, new Date(Date.parse(update.stateTime) - DAY_MS).toISOString());
      const [now, past] = [await this.queries.sizeBuckets(q, known, update.stateTime), await this.queries.sizeBuckets(q, known, pastTime)];
      return json({ coin: known, createdAt: update.stateTime, breakdownBySize: positionBreakdown(now, past) });
    });
  }

  /** Every open position of the coin as CSV rows (exact decimals), streamed from Postgres to the file. */
  async openPositionsCsv(coin: string): Promise<SignedLink> {
    const known = await this.coins.resolve(coin);
    return this.exported(`open-positions/${coinKey(known)}`, 'csv', async (q) => {
      const csv = new PassThrough();
      // A failure anywhere destroys `csv` with it, so the store's write fails and keeps no partial file.
      pipeline(await this.queries.openPositionsStream(q, known), openPositionsCsv(), csv).catch(() => undefined);
      return csv;
    });
  }

  /** The file behind a signed link of the local store (ForbiddenError when expired or altered). */
  async open(key: string, expires: string, signature: string): Promise<ExportFile> {
    // With an object store the links point at the store itself: the api serves no files.
    if (!(this.store instanceof LocalDiskExportStore))
      throw new NotFoundError('Export files are served by the export store, not by this api');
    return this.store.open(key, expires, signature);
  }

  private async exported(name: string, extension: 'json' | 'csv', build: ExportBuild): Promise<SignedLink> {
    const file = await this.builds.latest(name, extension, build);
    const link = await this.store.link(file.key);
    await this.files.linked(this.dataSource, file.key, file.stateHeight, link.expiresAt);
    return link;
  }
}

function json(value: unknown): Readable {
  return Readable.from([JSON.stringify(value)]);
}

function equityValues(r: EquityRow): Array<number | null> {
  return [
    jsonNumber(r.total_wallets_equity),
    jsonNumber(r.perp_wallets_equity),
    jsonNumber(r.spot_wallets_equity),
    jsonNumber(r.staking_wallets_equity),
    jsonNumberOrNull(r.vault_wallets_equity),
  ];
}
