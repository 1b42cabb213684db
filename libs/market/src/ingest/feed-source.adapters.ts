import { Injectable } from '@nestjs/common';
import type { JsonLogger } from '#runtime';
import { ExchangeFactsWriter } from '../facts/exchange-facts.writer.js';
import { InfoStateUpdates } from '../state/info-state.updates.js';
import { CatchUpVacuum } from './catch-up-vacuum.js';
import { HyperliquidApiFeedSource, type HyperliquidFeedOptions } from './hyperliquid-api.feed-source.js';
import { HyperliquidApiIngestion } from './hyperliquid-api.ingestion.js';
import { NodeDirectoryFeedSource, type NodeFeedOptions } from './node-directory.feed-source.js';
import { NodeDirectoryIngestion } from './node-directory.ingestion.js';
import { SimulatedExchangeIngestion } from './simulated-exchange.ingestion.js';
import { SimulatorFeedSource, type SimulatorFeedOptions } from './simulator.feed-source.js';

export type { HyperliquidFeedOptions, NodeFeedOptions, SimulatorFeedOptions };

/**
 * Builds each source's adapter from the write side's services and the caller's settings, so the app's
 * factory (which picks one by EXCHANGE_SOURCE) names no ingestion, and the simulator's catch-up pipeline
 * stays behind its adapter. Build one feed per process: an adapter keeps the feed's place and baselines.
 */
@Injectable()
export class FeedSourceAdapters {
  constructor(
    private readonly simulation: SimulatedExchangeIngestion,
    private readonly vacuum: CatchUpVacuum,
    private readonly nodeDirectory: NodeDirectoryIngestion,
    private readonly hyperliquidApi: HyperliquidApiIngestion,
    private readonly infoState: InfoStateUpdates,
    private readonly facts: ExchangeFactsWriter,
  ) {}

  simulator(options: SimulatorFeedOptions, logger: JsonLogger): SimulatorFeedSource {
    return new SimulatorFeedSource(this.simulation, this.vacuum, options, logger);
  }

  node(options: NodeFeedOptions, logger: JsonLogger): NodeDirectoryFeedSource {
    return new NodeDirectoryFeedSource(this.nodeDirectory, this.infoState, options, logger);
  }

  hyperliquid(options: HyperliquidFeedOptions, logger: JsonLogger): HyperliquidApiFeedSource {
    return new HyperliquidApiFeedSource(this.hyperliquidApi, this.facts, this.infoState, options, logger);
  }
}
