import { Injectable, OnModuleInit } from '@nestjs/common';
import type { AfterCommitHook } from '#database';
import { ExchangeFactsWriter, type FactsBatch } from '../facts/index.js';
import { compareProjectedFills, type ProjectedFill } from './projection-inputs.repository.js';

/** The memory's bound: a projection that falls this far behind reads its fills back from Postgres. */
export const MAX_BUFFERED_FILLS = 200_000;

interface BufferedBatch {
  lastBlock: number;
  fills: Array<{ block: number; fill: ProjectedFill }>;
}

/** An unbroken run of committed batches: every fill of the blocks in (after, upTo] of one source. */
interface Coverage {
  after: number;
  upTo: number;
  batches: BufferedBatch[];
  fills: number;
}

/**
 * The fills the facts writer just committed, kept for the projection in the same process, so it need not
 * read them back from Postgres: during a catch-up that read, and decoding its rows, were a large part of
 * the projection's cost. Only what is certainly what Postgres holds is served: a run of batches each
 * starting where the one before ended (the fills stream's checkpoint), all of whose fills were inserted.
 * Anything else (a gap, a batch with a fill already stored, a window reaching before the run or past it,
 * a process that only projects) is read from Postgres as before. A source is kept only once the
 * projection has asked for it, so a feed that is never projected (the public API's) keeps nothing.
 */
@Injectable()
export class RecentFillsBuffer implements AfterCommitHook<FactsBatch>, OnModuleInit {
  readonly name = 'recent-fills';
  private readonly sources = new Map<string, Coverage | null>();

  constructor(private readonly facts: ExchangeFactsWriter) {}

  onModuleInit(): void {
    this.facts.steps.registerAfterCommit(this);
  }

  async afterCommit(batch: FactsBatch): Promise<void> {
    if (!this.sources.has(batch.source)) return;
    let lastBlock: number | null = null;
    const fills: BufferedBatch['fills'] = [];
    for (const block of batch.blocks) {
      if (block.stream !== 'node_fills_by_block') continue;
      lastBlock = block.blockNumber;
      for (const { address, fill } of block.events) {
        fills.push({
          block: block.blockNumber,
          fill: {
            address: address.toLowerCase(),
            coin: fill.coin,
            px: numericText(fill.px),
            sz: numericText(fill.sz),
            side: fill.side,
            time: fill.time,
            startPosition: numericText(fill.startPosition),
            closedPnl: numericText(fill.closedPnl),
            fee: numericText(fill.fee),
            tid: fill.tid,
            hash: fill.hash,
            oid: fill.oid,
          },
        });
      }
    }
    if (lastBlock === null) return;
    const after = batch.fillsAfterBlock ?? -1;
    let coverage = this.sources.get(batch.source) ?? null;
    if (batch.result.fills !== fills.length) {
      // Some fill was already stored (a duplicate key), so Postgres holds fewer rows than the blocks: start
      // again after this batch.
      this.sources.set(batch.source, { after: lastBlock, upTo: lastBlock, batches: [], fills: 0 });
      return;
    }
    if (coverage === null || coverage.upTo !== after) {
      coverage = { after, upTo: after, batches: [], fills: 0 };
      this.sources.set(batch.source, coverage);
    }
    coverage.batches.push({ lastBlock, fills });
    coverage.upTo = lastBlock;
    coverage.fills += fills.length;
    while (coverage.fills > MAX_BUFFERED_FILLS) dropOldest(coverage);
  }

  /**
   * Every fill of blocks in (after, upTo] of `source` in the projection's order, or null when not all of
   * them are kept here. `after` is the projection's committed checkpoint: the batches before it are done.
   */
  take(source: string, after: number, upTo: number): ProjectedFill[] | null {
    if (!this.sources.has(source)) {
      this.sources.set(source, null);
      return null;
    }
    const coverage = this.sources.get(source);
    if (!coverage) return null;
    while (coverage.batches.length > 0 && coverage.batches[0]!.lastBlock <= after) dropOldest(coverage);
    if (coverage.after > after || coverage.upTo < upTo) return null;
    const fills: ProjectedFill[] = [];
    for (const batch of coverage.batches) {
      for (const { block, fill } of batch.fills) if (block > after && block <= upTo) fills.push(fill);
    }
    return fills.sort(compareProjectedFills);
  }
}

function dropOldest(coverage: Coverage): void {
  const batch = coverage.batches.shift()!;
  coverage.after = batch.lastBlock;
  coverage.fills -= batch.fills.length;
}

/**
 * A wire decimal (`-?digits(.digits)?`) as Postgres's numeric prints it back: no leading zeros in the
 * integer part and no minus on a zero; the fraction's digits, trailing zeros included, as they are.
 */
export function numericText(value: string): string {
  const negative = value.charCodeAt(0) === 45;
  let start = negative ? 1 : 0;
  // Leading zeros of the integer part, keeping the one before a point or the end.
  while (value.charCodeAt(start) === 48 && start + 1 < value.length && value.charCodeAt(start + 1) !== 46) start++;
  const body = value.slice(start);
  if (!negative) return body;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c > 48 && c <= 57) return `-${body}`;
  }
  return body;
}
