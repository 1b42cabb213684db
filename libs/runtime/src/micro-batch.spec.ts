import { describe, expect, it } from '@jest/globals';
import { MicroBatch } from './micro-batch.js';

describe('MicroBatch', () => {
  it('runs the calls of one turn as one batch, and the calls made meanwhile as the next', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const firstHeld = new Promise<void>((resolve) => (release = resolve));
    const batch = new MicroBatch<number, string>(async (inputs) => {
      batches.push(inputs);
      if (batches.length === 1) await firstHeld;
      return inputs.map((n) => `#${n}`);
    });
    const first = [1, 2, 3].map((n) => batch.submit(n));
    await new Promise((r) => setImmediate(r));
    // The first batch is running (held): these wait for it, then go together.
    const second = [4, 5].map((n) => batch.submit(n));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1, 2, 3]]);
    release();
    expect(await Promise.all([...first, ...second])).toEqual(['#1', '#2', '#3', '#4', '#5']);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('splits at the size limit, and rejects every call of a batch that fails, the next batch still running', async () => {
    const batches: number[][] = [];
    const batch = new MicroBatch<number, number>(async (inputs) => {
      batches.push(inputs);
      if (inputs.includes(3)) throw new Error('connection lost');
      return inputs.map((n) => n * 10);
    }, 2);
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => batch.submit(n)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      10,
      20,
      'connection lost',
      'connection lost',
      50,
    ]);
  });

  it('refuses an answer of the wrong length for the whole batch', async () => {
    const batch = new MicroBatch<number, number>(async () => [1]);
    await expect(Promise.all([batch.submit(1), batch.submit(2)])).rejects.toThrow('a batch of 2 answered 1 results');
  });
});
