import { Injectable } from '@nestjs/common';
import { ApiTokenRow, ConsumerService } from '#auth';

const DAY_SECONDS = 24 * 3600;

const view = (t: ApiTokenRow) => ({
  id: t.id,
  label: t.label,
  tail: t.tail,
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  expiresAt: t.expiresAt?.toISOString() ?? null,
});

/** A signed-in account's API keys, through the same consumer service the CLI uses. */
@Injectable()
export class DashboardKeysService {
  constructor(private readonly consumers: ConsumerService) {}

  async list(consumerId: number) {
    return (await this.consumers.listTokens(consumerId)).map(view);
  }

  async create(consumerId: number, label: string, expiresInDays?: number) {
    const issued = await this.consumers.issueToken(consumerId, {
      label,
      ...(expiresInDays ? { expiresInSeconds: expiresInDays * DAY_SECONDS } : {}),
    });
    const [created] = (await this.consumers.listTokens(consumerId)).filter((t) => t.id === issued.tokenId);
    return { ...view(created!), token: issued.token };
  }

  async revoke(consumerId: number, tokenId: string): Promise<void> {
    await this.consumers.revokeToken(tokenId, consumerId);
  }
}
