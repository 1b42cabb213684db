import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#config';
import { formatIssue } from '#exchange';
import { NodeDirectoryIngestion } from '#market';
import { JsonLogger, WorkLoop } from '#runtime';

const BLOCKS_PER_STREAM_PER_BATCH = 500;
/**
 * How long a caught-up feed waits before looking for new blocks. The node writes a block every 70 to
 * 100 ms, and every wait is latency a webhook alert adds; a look is a few file system calls.
 */
const CAUGHT_UP_WAIT_MS = 50;

/** With EXCHANGE_SOURCE=node: tails HL_NODE_DATA_DIR into Postgres until the app stops. */
@Injectable()
export class NodeFeedRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop = new WorkLoop({
    idleMs: CAUGHT_UP_WAIT_MS,
    errorMs: 2_000,
    onError: (error) =>
      this.logger.write('error', 'node feed batch failed; retrying from the stored checkpoints', { error: error.message }),
  });

  constructor(
    private readonly config: AppConfig,
    private readonly ingestion: NodeDirectoryIngestion,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.EXCHANGE_SOURCE !== 'node') return;
    const dir = this.config.HL_NODE_DATA_DIR!;
    this.logger.write('info', 'node feed started', { dataDir: dir });
    this.loop.start(async () => {
      const step = await this.ingestion.step(dir, BLOCKS_PER_STREAM_PER_BATCH);
      for (const issue of step.issues) this.logger.write('warn', 'skipped malformed record', { issue: formatIssue(issue) });
      if (step.written) this.logger.write('debug', 'blocks stored', { blocks: step.blocks, ...step.written });
      return step.blocks > 0;
    });
  }

  /** Lets the batch in progress commit, so a stop never leaves facts without their checkpoint. */
  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
