import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One issued JWT, identified by its `jti`; the token itself is never stored. */
@Entity('api_tokens')
export class ApiTokenEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'consumer_id', type: 'integer' })
  consumerId: number;

  @Column({ type: 'text', nullable: true })
  label: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
