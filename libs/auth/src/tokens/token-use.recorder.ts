import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiTokenRepository } from './api-token.repository.js';

/** How stale a key's "last used" may be: written in one statement per interval, never once per request. */
const RECORD_EVERY_MS = 5_000;

/**
 * When each token was last used, for the dashboard's key list. The request path only notes the time in
 * memory (a Map.set); the latest time per token is written in one batch every few seconds and at shutdown.
 */
@Injectable()
export class TokenUseRecorder implements OnApplicationShutdown {
  private readonly logger = new Logger(TokenUseRecorder.name);
  private pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: ApiTokenRepository,
  ) {
    this.timer = setInterval(() => void this.flush(), RECORD_EVERY_MS);
    this.timer.unref();
  }

  used(tokenId: string, now = Date.now()): void {
    this.pending.set(tokenId, now);
  }

  /** Writes the times noted so far; on failure they stay noted for the next pass (a newer time wins). */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.tokens.recordUse(
        this.dataSource,
        [...batch].map(([id, at]) => ({ id, at: new Date(at) })),
      );
    } catch (error) {
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      this.logger.warn(`token use not yet recorded (${batch.size} tokens): ${(error as Error).message}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
