import { setTimeout as sleep } from 'node:timers/promises';

export interface WorkLoopOptions {
  /** Wait after a step that found nothing to do. */
  idleMs: number;
  /** Wait after a step that threw, before trying again. */
  errorMs: number;
  onError(error: Error): void;
}

/**
 * The ingestor's background work: runs `step` again at once while it says there is more, after
 * `idleMs` when it is idle, after `errorMs` when it threw, until stopped. `stop()` lets the step in
 * progress finish (so a batch never commits without its checkpoint) and cuts any wait short.
 */
export class WorkLoop {
  private running = false;
  private loop?: Promise<void>;
  private waits = new AbortController();

  constructor(private readonly options: WorkLoopOptions) {}

  /** `step` resolves true when more work is waiting. */
  start(step: () => Promise<boolean>): void {
    this.running = true;
    this.loop = this.run(step);
  }

  private async run(step: () => Promise<boolean>): Promise<void> {
    while (this.running) {
      let wait: number;
      try {
        wait = (await step()) ? 0 : this.options.idleMs;
      } catch (error) {
        this.options.onError(error as Error);
        wait = this.options.errorMs;
      }
      if (wait && this.running) await sleep(wait, undefined, { signal: this.waits.signal }).catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    this.waits.abort();
    await this.loop;
  }
}
