import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Run } from '../support/app-process.js';
import { FaultStack, RECEIVER_PATH, until } from '../support/fault-stack.js';

// SIGTERM stops every process within SHUTDOWN_TIMEOUT_MS, whatever hangs: a dispatcher whose webhook requests
// never get an answer (each would wait its 60 s), and an api and an ingestor whose Postgres is frozen
// (SIGSTOP: connections open, nothing answers) while a request and a batch wait on it. Past the deadline a
// process logs what it was still closing and exits 1. Limits here are three times the deadline plus a margin:
// they catch a process that does not stop.

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

  it('stops an api and an ingestor whose Postgres is frozen, at the deadline', async () => {
    const reader = await stack.createConsumer('reader');
    stack.feed.start();
    const checkpoints = await stack.checkpoints();
    await until('the ingestor storing', async () => (await stack.checkpoints()) > checkpoints);
    await stack.postgres.signal('SIGSTOP');
    try {
      // A request waiting on the frozen Postgres (its statement limit is the server's to enforce: none now).
      const inFlight = stack.api('/events/endpoints', reader.token).then(
        (res) => res.status,
        () => 0,
      );
      await new Promise((r) => setTimeout(r, 1_000));
      for (const [name, app] of [
        ['api', stack.apps.api],
        ['ingestor', stack.apps.ingestor],
      ] as const) {
        expect(await terminate(app)).toBe(1);
        expect(logLines(app, 'shutdown deadline passed, exiting with what is still closing')).toEqual([
          expect.objectContaining({ level: 'error', deadlineMs: SHUTDOWN_TIMEOUT_MS, waitingFor: name }),
        ]);
      }
      expect(await inFlight).toBe(0); // its connection closed with the api, unanswered
    } finally {
      await stack.feed.stop();
      await stack.postgres.signal('SIGCONT');
    }
  }, 240_000);
});
