import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Run } from '../support/app-process.js';
import { FaultStack, RECEIVER_PATH, until } from '../support/fault-stack.js';

// SIGTERM stops every process within SHUTDOWN_TIMEOUT_MS, whatever hangs: a dispatcher whose webhook requests
// never get an answer (each would wait its 60 s), and an api and an ingestor whose Postgres is frozen
// (SIGSTOP: connections open, nothing answers). Past the deadline a process logs what it was still closing and
// exits 1. Limits here are three times the deadline plus a margin: they catch a process that does not stop.

const SHUTDOWN_TIMEOUT_MS = 3_000;
const EXIT_LIMIT_MS = 3 * SHUTDOWN_TIMEOUT_MS + 10_000;

async function terminate(app: Run): Promise<number | null> {
  app.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), EXIT_LIMIT_MS)));
  const outcome = await Promise.race([app.exited, limit]);
  clearTimeout(timer);
  if (outcome === 'running') throw new Error(`still running ${EXIT_LIMIT_MS} ms after SIGTERM:\n${app.output().slice(-4_000)}`);
  return outcome;
}

/** The JSON log lines of a process with the given message. */
function logLines(app: Run, msg: string): Array<Record<string, unknown>> {
  return app
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);
}

describe('a SIGTERM while something hangs', () => {
  let stack: FaultStack;

  beforeAll(async () => {
    // Webhook requests that may wait a minute: longer than the deadline, so only the deadline can end the stop.
    stack = await FaultStack.start({ SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS), WEBHOOK_TIMEOUT_MS: '60000' });
  }, 180_000);

  afterAll(() => stack?.close(), 60_000);

  it('stops a dispatcher whose webhook requests never get an answer, at the deadline', async () => {
    stack.receiver.answer(RECEIVER_PATH, 'hang');
    await stack.subscribe(await stack.createConsumer('deliveries'));
    stack.feed.start();
    await stack.receiver.waitFor(RECEIVER_PATH, 5, 60_000);
    await stack.feed.stop();

    const dispatcher = stack.apps.dispatcher;
    expect(await terminate(dispatcher)).toBe(1);
    expect(logLines(dispatcher, 'shutdown deadline passed, exiting with what is still closing')).toEqual([
      expect.objectContaining({ level: 'error', deadlineMs: SHUTDOWN_TIMEOUT_MS, waitingFor: 'dispatcher' }),
    ]);
    // What it was sending is not lost: the rows are still pending in Postgres, for the next dispatcher.
    expect(await stack.count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)).toBeGreaterThan(0);
  }, 240_000);

  it('stops an api and an ingestor whose Postgres is frozen, by the deadline', async () => {
    stack.feed.start();
    const checkpoints = await stack.checkpoints();
    await until('the ingestor storing', async () => (await stack.checkpoints()) > checkpoints);
    await stack.postgres.signal('SIGSTOP');
    try {
      for (const app of [stack.apps.api, stack.apps.ingestor]) {
        const code = await terminate(app);
        expect(logLines(app, 'shutting down')).toHaveLength(1);
        // Either it closed (0) or the deadline ended what still waited on Postgres (1, with the line saying so).
        if (code !== 0) {
          expect(code).toBe(1);
          expect(logLines(app, 'shutdown deadline passed, exiting with what is still closing')).toHaveLength(1);
        }
      }
    } finally {
      await stack.feed.stop();
      await stack.postgres.signal('SIGCONT');
    }
  }, 240_000);
});
