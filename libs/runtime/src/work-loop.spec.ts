import { describe, expect, it } from '@jest/globals';
import { WorkLoop } from './work-loop.js';

describe('WorkLoop', () => {
  it('runs again at once while there is more, reports a failure and goes on, and stops after the step in progress', async () => {
    const errors: string[] = [];
    const loop = new WorkLoop({ idleMs: 10 * 60_000, errorMs: 0, onError: (error) => errors.push(error.message) });
    const steps: string[] = [];
    let idle!: () => void;
    const reachedIdle = new Promise<void>((resolve) => (idle = resolve));
    loop.start(async () => {
      steps.push(`step ${steps.length + 1}`);
      if (steps.length === 2) throw new Error('database went away');
      if (steps.length < 4) return true;
      idle();
      return false;
    });
    await reachedIdle;
    // The loop now waits ten minutes for more work; stop() must not.
    await loop.stop();
    expect(steps).toEqual(['step 1', 'step 2', 'step 3', 'step 4']);
    expect(errors).toEqual(['database went away']);
  });
});
