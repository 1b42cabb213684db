import { afterEach, describe, expect, it } from '@jest/globals';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FeedRefusedError, FeedSource, type FeedStep } from '#market';
import { JsonLogger } from '#runtime';
import { FeedRunner } from './feed.runner.js';

/** A feed of its own: opens as told, stores `more` steps of blocks, and says what it was asked. */
class ScriptedFeed extends FeedSource {
  readonly name = 'scripted';
  // Long enough that only a stop ends the wait after the last step.
  readonly idleMs = 10 * 60_000;
  readonly calls: string[] = [];
  readonly idle: Promise<void>;
  private reachedIdle!: () => void;

  constructor(
    private readonly openWith: () => Promise<Record<string, unknown>>,
    private readonly steps: number,
  ) {
    super();
    this.idle = new Promise((resolve) => (this.reachedIdle = resolve));
  }

  async open(): Promise<Record<string, unknown>> {
    this.calls.push('open');
    return this.openWith();
  }

  async step(): Promise<FeedStep> {
    const n = this.calls.filter((call) => call.startsWith('step')).length + 1;
    this.calls.push(`step ${n}`);
    const more = n < this.steps;
    if (!more) this.reachedIdle();
    return { more, stored: { blocks: n }, issues: [], states: [] };
  }

  async close(): Promise<void> {
    this.calls.push('close');
  }
}

describe('FeedRunner', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function logged(): { logger: JsonLogger; lines: () => Array<Record<string, unknown>>; close: () => void } {
    const dir = mkdtempSync(join(tmpdir(), 'tw-feed-log-'));
    dirs.push(dir);
    const fd = openSync(join(dir, 'out.log'), 'w');
    const logger = new JsonLogger('debug', 'ingestor', fd);
    return {
      logger,
      lines: () => {
        logger.flush();
        return readFileSync(join(dir, 'out.log'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      },
      close: () => closeSync(fd),
    };
  }

  it('opens the feed once, steps it again at once while more is waiting, and on shutdown closes it after the last step', async () => {
    const { logger, lines, close } = logged();
    const feed = new ScriptedFeed(async () => ({ dataDir: 'scripted/dir' }), 3);
    const runner = new FeedRunner(feed, logger);
    runner.onApplicationBootstrap();
    await feed.idle;
    // The runner now waits the feed's ten idle minutes; the shutdown must not.
    await runner.onApplicationShutdown();
    expect(feed.calls).toEqual(['open', 'step 1', 'step 2', 'step 3', 'close']);
    expect(lines().map(({ level, msg, dataDir, blocks }) => ({ level, msg, dataDir, blocks }))).toEqual([
      { level: 'info', msg: 'scripted feed started', dataDir: 'scripted/dir', blocks: undefined },
      { level: 'debug', msg: 'blocks stored', dataDir: undefined, blocks: 1 },
      { level: 'debug', msg: 'blocks stored', dataDir: undefined, blocks: 2 },
      { level: 'debug', msg: 'blocks stored', dataDir: undefined, blocks: 3 },
    ]);
    close();
  });

  it('stops a feed that refuses to open, saying why, and still closes it on shutdown', async () => {
    const { logger, lines, close } = logged();
    let refused!: () => void;
    const refusal = new Promise<void>((resolve) => (refused = resolve));
    const feed = new ScriptedFeed(async () => {
      refused();
      throw new FeedRefusedError('the directory holds another simulation');
    }, 1);
    const runner = new FeedRunner(feed, logger);
    runner.onApplicationBootstrap();
    await refusal;
    await runner.onApplicationShutdown();
    expect(feed.calls).toEqual(['open', 'close']);
    expect(lines().map(({ level, msg, error }) => ({ level, msg, error }))).toEqual([
      { level: 'error', msg: 'scripted feed stopped', error: 'the directory holds another simulation' },
    ]);
    close();
  });
});
