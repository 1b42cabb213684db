import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DeliveryUsageService } from '#auth';
import { DeliveriesRepository } from './deliveries.repository.js';

const BATCH = 5_000;

/**
 * Charges one usage token per delivered row, exactly once: the row's `usage_charged` flag and the
 * consumer's `usage` count move in one transaction, in batches (a busy dispatcher delivers thousands
 * a second to one consumer; one usage row update per delivery would serialise them). A crash between
 * the delivered transition and the charge leaves the row uncharged for the next pass of any process.
 */
@Injectable()
export class UsageChargesFlusher {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveriesRepository,
    private readonly usage: DeliveryUsageService,
  ) {}

  /** Charges every delivered row not yet charged; returns how many. */
  async flush(): Promise<number> {
    let total = 0;
    for (;;) {
      const increments = await this.dataSource.transaction(async (q) => {
        const charges = await this.deliveries.takeUncharged(q, BATCH);
        return charges.length ? { count: charges.length, increments: await this.usage.charge(q, charges) } : null;
      });
      if (!increments) return total;
      total += increments.count;
      await this.usage.settle(increments.increments);
      if (increments.count < BATCH) return total;
    }
  }
}
