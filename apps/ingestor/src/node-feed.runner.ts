import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../libs/config/src/index.js';
import { formatIssue } from '../../../libs/exchange/src/index.js';
import { NodeDirectoryIngestion } from '../../../libs/market/src/index.js';
import { JsonLogger } from '../../../libs/runtime/src/index.js';

const BLOCKS_PER_STREAM_PER_BATCH = 500;
const IDLE_WAIT_MS = 500;
const ERROR_WAIT_MS = 2_000;

/** With EXCHANGE_SOURCE=node: tails HL_NODE_DATA_DIR into Postgres until the app stops. */
@Injectable()
export class NodeFeedRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly ingestion: NodeDirectoryIngestion,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.EXCHANGE_SOURCE !== 'node') return;
    const dir = this.config.HL_NODE_DATA_DIR!;
    this.running = true;
    this.logger.write('info', 'node feed started', { dataDir: dir });
    this.loop = this.run(dir);
  }

  private async run(dir: string): Promise<void> {
    while (this.running) {
      let wait = 0;
      try {
        const step = await this.ingestion.step(dir, BLOCKS_PER_STREAM_PER_BATCH);
        for (const issue of step.issues) this.logger.write('warn', 'skipped malformed record', { issue: formatIssue(issue) });
        if (step.written) this.logger.write('debug', 'blocks stored', { blocks: step.blocks, ...step.written });
        if (step.blocks === 0) wait = IDLE_WAIT_MS;
      } catch (error) {
        this.logger.write('error', 'node feed batch failed; retrying from the stored checkpoints', { error: (error as Error).message });
        wait = ERROR_WAIT_MS;
      }
      if (wait && this.running) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Lets the batch in progress commit, so a stop never leaves facts without their checkpoint. */
  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}
