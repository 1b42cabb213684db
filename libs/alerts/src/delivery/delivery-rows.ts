import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MicroBatch } from '#runtime';
import { DeliveriesRepository, type AttemptApplied, type AttemptRecord, type DeliveryToSend } from './deliveries.repository.js';

/**
 * The dispatcher's reads and writes of delivery rows, gathered across the jobs in flight: a read per
 * batch of jobs, and the successful attempts recorded a batch per statement (and commit). A failed
 * attempt moves its endpoint's health, so it is recorded alone, in the order the attempts finished.
 */
@Injectable()
export class DeliveryRows {
  private readonly loads: MicroBatch<string, DeliveryToSend | null>;
  private readonly records: MicroBatch<AttemptRecord, AttemptApplied>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveriesRepository,
  ) {
    this.loads = new MicroBatch(async (ids) => {
      const found = await this.deliveries.loadForSend(this.dataSource, [...new Set(ids)]);
      return ids.map((id) => found.get(id) ?? null);
    });
    this.records = new MicroBatch((attempts) => this.recordInOrder(attempts));
  }

  /** The delivery with its endpoint; null when the row does not exist. */
  load(deliveryId: string): Promise<DeliveryToSend | null> {
    return this.loads.submit(deliveryId);
  }

  record(attempt: AttemptRecord): Promise<AttemptApplied> {
    return this.records.submit(attempt);
  }

  private async recordInOrder(attempts: AttemptRecord[]): Promise<AttemptApplied[]> {
    const out: AttemptApplied[] = [];
    // A statement that fails leaves its deliveries pending (the reconciler sends them again); the
    // others are still recorded, then the whole batch reports the failure.
    let failure: unknown = null;
    let i = 0;
    while (i < attempts.length) {
      const run: AttemptRecord[] = [];
      const ids = new Set<string>();
      // A run of successes of distinct deliveries (the same delivery twice: its second attempt goes alone).
      while (i < attempts.length && attempts[i]!.outcome === 'delivered' && !ids.has(attempts[i]!.deliveryId)) {
        ids.add(attempts[i]!.deliveryId);
        run.push(attempts[i++]!);
      }
      try {
        if (run.length > 0) {
          const applied = await this.deliveries.recordDelivered(this.dataSource, run);
          for (const a of run) out.push({ applied: applied.has(a.deliveryId), suspendedNow: false });
        } else {
          out.push(await this.deliveries.recordAttempt(this.dataSource, attempts[i++]!));
        }
      } catch (error) {
        failure ??= error;
        while (out.length < i) out.push({ applied: false, suspendedNow: false });
      }
    }
    if (failure !== null) throw failure;
    return out;
  }
}
