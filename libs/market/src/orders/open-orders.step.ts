import { Injectable, OnModuleInit } from '@nestjs/common';
import type { SqlRunner, TransactionStep } from '#database';
import { ExchangeFactsWriter, type FactsBatch } from '../facts/index.js';
import { OpenOrdersWriter } from './open-orders.writer.js';

/**
 * The open-order book moves in the facts transaction: a snapshot never shows an order whose status or
 * fill is not stored, and a crash loses both or neither. Registered with the facts writer, which knows
 * no feature by name.
 */
@Injectable()
export class OpenOrdersStep implements TransactionStep<FactsBatch>, OnModuleInit {
  readonly name = 'open-orders';

  constructor(
    private readonly facts: ExchangeFactsWriter,
    private readonly orders: OpenOrdersWriter,
  ) {}

  onModuleInit(): void {
    this.facts.steps.register(this);
  }

  run(q: SqlRunner, batch: FactsBatch): Promise<void> {
    return this.orders.write(q, batch.source, batch.blocks);
  }
}
