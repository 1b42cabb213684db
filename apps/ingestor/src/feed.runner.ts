import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { formatIssue } from '#exchange';
import { FeedRefusedError, FeedSource } from '#market';
import { JsonLogger, WorkLoop } from '#runtime';

/** The wait after a failed step (or a failed open) before trying again. */
const ERROR_WAIT_MS = 2_000;

/**
 * Drives the chosen feed source until the app stops: opens it (again after a wait until it opens, unless
 * it refuses), then steps it, at once while it says more is waiting and after its idle wait otherwise,
 * and logs what each step stored. The source decides everything particular to it.
 */
@Injectable()
export class FeedRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: WorkLoop;
  private opened = false;

  constructor(
    private readonly feed: FeedSource,
    private readonly logger: JsonLogger,
  ) {
    this.loop = new WorkLoop({ idleMs: feed.idleMs, errorMs: ERROR_WAIT_MS, onError: (error) => this.failed(error) });
  }

  onApplicationBootstrap(): void {
    this.loop.start(() => (this.opened ? this.step() : this.open()));
  }

  private async open(): Promise<boolean> {
    const fields = await this.feed.open();
    this.opened = true;
    this.logger.write('info', `${this.feed.name} feed started`, fields);
    return true;
  }

  private async step(): Promise<boolean> {
    const { more, stored, issues, states } = await this.feed.step();
    for (const issue of issues) this.logger.write('warn', 'skipped malformed record', { issue: formatIssue(issue) });
    if (stored) this.logger.write('debug', 'blocks stored', stored);
    for (const state of states) if (state.applied) this.logger.write('debug', 'state update applied', { ...state });
    return more;
  }

  private failed(error: Error): void {
    const name = this.feed.name;
    if (error instanceof FeedRefusedError) {
      this.logger.write('error', `${name} feed stopped`, { error: error.message });
      // From inside the loop: it ends once this returns, and the app (the api beside it) runs on.
      void this.loop.stop();
    } else if (this.opened) {
      this.logger.write('error', `${name} feed step failed; retrying from the stored checkpoints`, { error: error.message });
    } else {
      this.logger.write('error', `${name} feed cannot start; retrying`, { error: error.message });
    }
  }

  /** Lets the step in progress commit, so a stop never leaves facts without their checkpoint, then closes the feed. */
  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.feed.close();
  }
}
