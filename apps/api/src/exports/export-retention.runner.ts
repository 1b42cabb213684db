import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ExportRetention } from '#market';
import { JsonLogger, WorkLoop } from '#runtime';

/** How often an api process looks for export files to delete: a replaced file's links lapse 120 s after the last one. */
const RETENTION_EVERY_MS = 60_000;

/** Export retention in every api process, beside its routes (passes of several processes skip each other's rows). */
@Injectable()
export class ExportRetentionRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: WorkLoop;

  constructor(
    private readonly retention: ExportRetention,
    private readonly logger: JsonLogger,
  ) {
    this.loop = new WorkLoop({
      idleMs: RETENTION_EVERY_MS,
      errorMs: RETENTION_EVERY_MS,
      onError: (error) => this.logger.write('warn', 'export retention failed', { error: error.message }),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start(async () => {
      const deleted = await this.retention.sweep();
      if (deleted > 0) this.logger.write('info', 'export files deleted', { deleted });
      return false;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
