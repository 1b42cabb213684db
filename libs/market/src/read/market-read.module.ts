import { Module } from '@nestjs/common';
import { BuildersQueries } from './builders/builders.queries.js';
import { BuildersService } from './builders/builders.service.js';
import { CoinsQueries } from './coins/coins.queries.js';
import { CoinsService } from './coins/coins.service.js';
import { ClosedTradesQueries } from './closed-trades/closed-trades.queries.js';
import { ClosedTradesService } from './closed-trades/closed-trades.service.js';
import { OrderSnapshotsQueries } from './orders/order-snapshots.queries.js';
import { OrderSnapshotsService } from './orders/order-snapshots.service.js';
import { SegmentsService } from './segments/segments.service.js';
import { StateStatusQueries } from './state-status/state-status.queries.js';
import { StateStatusService } from './state-status/state-status.service.js';

const READ = [
  CoinsQueries,
  CoinsService,
  SegmentsService,
  StateStatusQueries,
  StateStatusService,
  BuildersQueries,
  BuildersService,
  ClosedTradesQueries,
  ClosedTradesService,
  OrderSnapshotsQueries,
  OrderSnapshotsService,
];

/**
 * What the api's routes read: one service per feature with the queries it runs. Needs the DataSource and
 * the KeysetCursorCodec (DatabaseModule's in the apps).
 */
@Module({
  providers: READ,
  exports: READ,
})
export class MarketReadModule {}
