import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ReadVersionsRepository, WriterSteps } from '#database';
import type { NodeBlock } from '#exchange';
import type { FactsBatch, FeedBlock, FeedPosition, MidPriceTick, WriteBlocksOptions, WriteBlocksResult } from './exchange-facts.types.js';
import { FeedCheckpointRepository } from './feed-checkpoint.repository.js';
import { fillRows, fundingPaymentRows, lastPrices, ledgerUpdateRows, twapStatusRows } from './fact-rows.js';
import { FillsRepository } from './fills.repository.js';
import { FundingPaymentsRepository } from './funding-payments.repository.js';
import { LedgerUpdatesRepository } from './ledger-updates.repository.js';
import { MarketPricesRepository } from './market-prices.repository.js';
import { TwapStatusesRepository } from './twap-statuses.repository.js';

/**
 * Stores the exchange facts of parsed blocks and the feed checkpoints in one transaction per batch, so
 * a crash leaves either both or neither. Writing a block twice changes nothing: a block at or below its
 * stream's stored checkpoint is skipped, and every insert ignores rows already stored.
 *
 * Work of other features that must commit with the facts (the open-order book, the alert outbox)
 * registers itself in `steps`; work that must follow the commit registers an after-commit hook.
 */
@Injectable()
export class ExchangeFactsWriter {
  readonly steps = new WriterSteps<FactsBatch>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly fills: FillsRepository,
    private readonly twapStatuses: TwapStatusesRepository,
    private readonly ledgerUpdates: LedgerUpdatesRepository,
    private readonly fundingPayments: FundingPaymentsRepository,
    private readonly marketPrices: MarketPricesRepository,
    private readonly checkpoints: FeedCheckpointRepository,
    private readonly readVersions: ReadVersionsRepository,
  ) {}

  /**
   * Blocks in feed order (streams may interleave); `source` names the feed (`node`, `simulator`, ...).
   * `skipAppliedBlocks: false` is for feeds without real block numbers (the public API): their blocks
   * are never skipped by number, and only the rows' unique keys keep a re-read from adding anything.
   */
  async writeBlocks(batch: FeedBlock[], source: string, { skipAppliedBlocks = true }: WriteBlocksOptions = {}): Promise<WriteBlocksResult> {
    const result = noRows();
    if (batch.length === 0) return result;
    const written = await this.dataSource.transaction(async (q): Promise<FactsBatch> => {
      const streams = [...new Set(batch.map((b) => b.stream))].sort();
      const stored = await this.checkpoints.lock(q, source, streams);
      const applied = new Map<string, number>();
      for (const [stream, position] of stored) if (position.lastBlock !== null) applied.set(stream, position.lastBlock);
      const fillsAfterBlock = applied.get('node_fills_by_block') ?? null;

      const accepted: NodeBlock[] = [];
      const positions = new Map<string, FeedPosition>();
      for (const { stream, block, position } of batch) {
        const done = applied.get(stream);
        if (skipAppliedBlocks && done !== undefined && done >= block.blockNumber) {
          result.skippedBlocks++;
          continue;
        }
        applied.set(stream, block.blockNumber);
        positions.set(stream, position);
        accepted.push(block);
      }

      const fills = accepted.flatMap((b) => (b.stream === 'node_fills_by_block' ? fillRows(b) : []));
      const misc = accepted.filter((b) => b.stream === 'misc_events_by_block');
      await this.fills.ensurePartitions(q, fills);
      result.fills = await this.fills.insert(q, fills);
      result.twapStatuses = await this.twapStatuses.insert(
        q,
        accepted.flatMap((b) => (b.stream === 'node_twap_statuses_by_block' ? twapStatusRows(b) : [])),
      );
      result.ledgerUpdates = await this.ledgerUpdates.insert(q, misc.flatMap(ledgerUpdateRows));
      result.fundingPayments = await this.fundingPayments.insert(q, misc.flatMap(fundingPaymentRows));
      const previousPrices = await this.marketPrices.advance(q, lastPrices(fills));
      const facts: FactsBatch = { source, blocks: accepted, fills, fillsAfterBlock, previousPrices, midTicks: [], result };
      await this.steps.runSteps(q, facts);
      await this.checkpoints.advance(q, source, positions);
      await this.readVersions.bump(q, 'facts');
      return facts;
    });
    await this.steps.runAfterCommit(written);
    return result;
  }

  /**
   * The mids of `source` that moved since its previous read of them, the price ticks of a feed whose fills
   * do not tell the markets' prices (the public API's, a few wallets' only). No table of the facts holds
   * them: the registered steps see them as a batch without blocks, in one transaction (the alert outbox
   * stores the price crossings they make), and the hooks after its commit (the enqueue). No checkpoint
   * moves and no read version is bumped: nothing a route reads has changed.
   */
  async writeMidTicks(ticks: MidPriceTick[], source: string): Promise<void> {
    if (ticks.length === 0) return;
    const batch: FactsBatch = {
      source,
      blocks: [],
      fills: [],
      fillsAfterBlock: null,
      previousPrices: new Map(),
      midTicks: ticks,
      result: noRows(),
    };
    await this.dataSource.transaction((q) => this.steps.runSteps(q, batch));
    await this.steps.runAfterCommit(batch);
  }
}

const noRows = (): WriteBlocksResult => ({ skippedBlocks: 0, fills: 0, twapStatuses: 0, ledgerUpdates: 0, fundingPayments: 0 });
