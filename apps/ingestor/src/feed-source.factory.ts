import { AppConfig } from '#config';
import { parseTrackedAddresses, WorkerSimulatorEngine } from '#exchange';
import { FeedSource, FeedSourceAdapters } from '#market';
import { JsonLogger, ProgressBar } from '#runtime';

/**
 * The feed EXCHANGE_SOURCE names, built from its settings (validated at start, see AppConfig). The one
 * place of the ingestor that reads EXCHANGE_SOURCE: everything else asks the feed (its name, its pace).
 */
export function feedSourceFor(config: AppConfig, adapters: FeedSourceAdapters, logger: JsonLogger): FeedSource {
  const stateIntervalMs = config.STATE_UPDATE_INTERVAL * 60_000;
  const simulatedNow = config.SIM_NOW;
  switch (config.EXCHANGE_SOURCE) {
    case 'simulator':
      return adapters.simulator(
        {
          dataDir: config.SIM_DATA_DIR,
          settings: {
            seed: config.SIM_SEED,
            wallets: config.SIM_WALLETS,
            markets: config.SIM_MARKETS,
            eventsPerSecond: config.SIM_EVENTS_PER_SECOND,
            bookOrders: config.SIM_BOOK_ORDERS,
          },
          backfillDays: config.SIM_BACKFILL_DAYS,
          stateIntervalMs,
          speed: config.SIM_SPEED,
          // The simulator on the second core: the next chunks are made while this thread stores one.
          engine: (settings) => new WorkerSimulatorEngine(settings),
          progress: (label) => new ProgressBar(label),
          ...(simulatedNow === undefined ? {} : { clock: () => simulatedNow }),
        },
        logger,
      );
    case 'node':
      return adapters.node({ dataDir: config.HL_NODE_DATA_DIR!, infoUrl: config.HL_INFO_URL, stateIntervalMs }, logger);
    case 'hyperliquid':
      return adapters.hyperliquid(
        {
          infoUrl: config.HL_INFO_URL,
          wsUrl: config.HL_WS_URL,
          addresses: parseTrackedAddresses(config.HL_TRACKED_ADDRESSES),
          stateIntervalMs,
        },
        logger,
      );
  }
}
