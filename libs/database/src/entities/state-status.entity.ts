import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Single row (id = 1): the newest exchange state seen and the newest one fully processed. */
@Entity('state_status')
export class StateStatusEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ name: 'latest_height', type: 'bigint', nullable: true })
  latestHeight: string | null;

  @Column({ name: 'latest_state_time', type: 'timestamptz', nullable: true })
  latestStateTime: Date | null;

  @Column({ name: 'processed_height', type: 'bigint', nullable: true })
  processedHeight: string | null;

  @Column({ name: 'processed_state_time', type: 'timestamptz', nullable: true })
  processedStateTime: Date | null;

  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true })
  processedAt: Date | null;
}
