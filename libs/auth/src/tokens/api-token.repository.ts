import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, Not } from 'typeorm';
import { ApiTokenEntity } from '../../../database/src/index.js';

export interface ApiTokenRow {
  id: string;
  consumerId: number;
  label: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

@Injectable()
export class ApiTokenRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(ApiTokenEntity);
  }

  async insert(row: { id: string; consumerId: number; label: string | null; expiresAt: Date | null }): Promise<ApiTokenRow> {
    return this.repo.save(this.repo.create({ ...row, revokedAt: null }));
  }

  async findById(id: string): Promise<ApiTokenRow | null> {
    return this.repo.findOneBy({ id });
  }

  /** Marks the token revoked; returns false when there is no such token. Revoking twice keeps the first time. */
  async revoke(id: string): Promise<boolean> {
    const result = await this.dataSource.query(
      `UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING id`,
      [id],
    );
    return result[1] > 0;
  }

  async revokedIds(): Promise<string[]> {
    const rows = await this.repo.find({ select: { id: true }, where: { revokedAt: Not(IsNull()) } });
    return rows.map((r) => r.id);
  }
}
