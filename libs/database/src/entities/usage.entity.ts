import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Durable count of usage tokens spent by a consumer in one plan period. */
@Entity('usage')
export class UsageEntity {
  @PrimaryColumn({ name: 'consumer_id', type: 'integer' })
  consumerId: number;

  @PrimaryColumn({ name: 'period_start', type: 'timestamptz' })
  periodStart: Date;

  @Column({ type: 'bigint' })
  used: string;
}
