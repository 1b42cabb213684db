import { Module } from '@nestjs/common';
import { AppConfig } from '#config';
import { ExportsDatabaseModule, SigningKeys } from '#database';
import { MarketReadModule } from '../read/market-read.module.js';
import { ExportBuilds } from './export-builds.js';
import { ExportFilesRepository } from './export-files.repository.js';
import { ExportRetention } from './export-retention.js';
import { exportStoreFor } from './export-store.factory.js';
import { ExportStore } from './export-store.js';
import { ExportsService } from './exports.service.js';

/**
 * The export files the api builds, keeps and deletes: built from what MarketReadModule reads, on the export
 * pool (ExportsDatabaseModule), kept in the store EXPORT_STORE names, listed in `export_files`.
 */
@Module({
  imports: [MarketReadModule, ExportsDatabaseModule],
  providers: [
    ExportsService,
    ExportBuilds,
    ExportFilesRepository,
    ExportRetention,
    { provide: ExportStore, inject: [AppConfig, SigningKeys], useFactory: exportStoreFor },
  ],
  exports: [ExportsService, ExportRetention, ExportStore],
})
export class ExportsModule {}
