import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '#config';
import { DeliveryRetentionRepository } from './delivery-retention.repository.js';

const BATCH = 5_000;

/**
 * Keeps the delivery log to ALERT_DELIVERY_RETENTION_DAYS: held deliveries past their expiry or older
 * than that expire (a resume months later must not send stale news), and finished rows older than that
 * are deleted with their attempts. Every dispatcher runs it; the batches skip each other's locked rows.
 */
@Injectable()
export class DeliveryRetention {
  private readonly days: number;

  constructor(
    config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly retention: DeliveryRetentionRepository,
  ) {
    this.days = config.ALERT_DELIVERY_RETENTION_DAYS;
  }

  /** One pass; returns how many rows it expired and deleted. */
  async sweep(): Promise<{ expired: number; deleted: number }> {
    let expired = 0;
    for (let n = BATCH; n === BATCH; expired += n) n = await this.retention.expireHeld(this.dataSource, this.days, BATCH);
    let deleted = 0;
    for (let n = BATCH; n === BATCH; deleted += n) n = await this.retention.deleteFinished(this.dataSource, this.days, BATCH);
    return { expired, deleted };
  }
}
