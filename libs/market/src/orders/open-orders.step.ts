import { Injectable, OnModuleInit } from '@nestjs/common';
import type { SqlRunner, TransactionStep } from '#database';
import { ExchangeFactsWriter, type FactsBatch } from '../facts/index.js';
import { BookedOrderKeys } from './booked-order-keys.js';
import { OpenOrdersWriter } from './open-orders.writer.js';

/**
 * The open-order book moves in the facts transaction: a snapshot never shows an order whose status or
 * fill is not stored, and a crash loses both or neither. Registered with the facts writer, which knows
 * no feature by name; its after-commit hook confirms the book's keys kept in memory (BookedOrderKeys).
 */
@Injectable()
export class OpenOrdersStep implements TransactionStep<FactsBatch>, OnModuleInit {
  readonly name = 'open-orders';

  constructor(
    private readonly facts: ExchangeFactsWriter,
    private readonly orders: OpenOrdersWriter,
    private readonly bookedKeys: BookedOrderKeys,
  ) {}

  onModuleInit(): void {
    this.facts.steps.register(this);
    this.facts.steps.registerAfterCommit({ name: 'open-orders', afterCommit: async () => this.bookedKeys.committed() });
  }

  run(q: SqlRunner, batch: FactsBatch): Promise<void> {
    return this.orders.write(q, batch.source, batch.blocks);
  }
}
