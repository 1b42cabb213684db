import { describe, expect, it } from '@jest/globals';
import { NextTurnRead } from './next-turn-read.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('NextTurnRead', () => {
  it('sends one read for the callers of one turn, on the next turn', async () => {
    let reads = 0;
    const shared = new NextTurnRead(async () => ++reads);
    const answers = [shared.get(), shared.get(), shared.get()];
    expect(reads).toBe(0);
    expect(await Promise.all(answers)).toEqual([1, 1, 1]);
    expect(reads).toBe(1);
  });

  it('gives a caller that asks after the read was sent a read of its own, sent after it asked', async () => {
    let reads = 0;
    let finish!: () => void;
    const shared = new NextTurnRead(() => {
      reads++;
      return new Promise<number>((resolve) => (finish = () => resolve(reads)));
    });
    const first = shared.get();
    await nextTurn();
    expect(reads).toBe(1);
    const second = shared.get();
    finish();
    expect(await first).toBe(1);
    await nextTurn();
    expect(reads).toBe(2);
    finish();
    expect(await second).toBe(2);
  });

  it('passes a failed read to its callers and reads again for the next', async () => {
    let fail = true;
    const shared = new NextTurnRead(async () => {
      if (fail) throw new Error('connection refused');
      return 'ok';
    });
    const a = shared.get();
    const b = shared.get();
    await expect(a).rejects.toThrow('connection refused');
    await expect(b).rejects.toThrow('connection refused');
    fail = false;
    expect(await shared.get()).toBe('ok');
  });
});
