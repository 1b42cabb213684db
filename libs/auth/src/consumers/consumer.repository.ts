import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConsumerEntity } from '../../../database/src/index.js';
import { PlanId } from './plans.js';

export interface ConsumerRow {
  id: number;
  name: string;
  plan: PlanId;
  rateLimitPerMinute: number | null;
  usageLimit: number | null;
  createdAt: Date;
}

function toRow(entity: ConsumerEntity): ConsumerRow {
  return {
    id: entity.id,
    name: entity.name,
    plan: entity.plan as PlanId,
    rateLimitPerMinute: entity.rateLimitPerMinute,
    usageLimit: entity.usageLimit === null ? null : Number(entity.usageLimit),
    createdAt: entity.createdAt,
  };
}

@Injectable()
export class ConsumerRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(input: { name: string; plan: PlanId; rateLimitPerMinute?: number; usageLimit?: number }): Promise<ConsumerRow> {
    const repo = this.dataSource.getRepository(ConsumerEntity);
    const saved = await repo.save(
      repo.create({
        name: input.name,
        plan: input.plan,
        rateLimitPerMinute: input.rateLimitPerMinute ?? null,
        usageLimit: input.usageLimit === undefined ? null : String(input.usageLimit),
      }),
    );
    return toRow(saved);
  }

  async findById(id: number): Promise<ConsumerRow | null> {
    const entity = await this.dataSource.getRepository(ConsumerEntity).findOneBy({ id });
    return entity ? toRow(entity) : null;
  }
}
