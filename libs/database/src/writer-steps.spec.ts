import { describe, expect, it } from '@jest/globals';
import type { SqlRunner } from './sql/sql-runner.js';
import { WriterSteps } from './writer-steps.js';

const runner: SqlRunner = { query: async () => [] };

describe('WriterSteps', () => {
  it('runs the steps, then the hooks, each in registration order, with the same context', async () => {
    const seen: string[] = [];
    const steps = new WriterSteps<{ batch: number }>();
    steps.register({ name: 'orders', run: async (q, c) => void seen.push(`orders ${c.batch} ${q === runner}`) });
    steps.register({ name: 'outbox', run: async (_q, c) => void seen.push(`outbox ${c.batch}`) });
    steps.registerAfterCommit({ name: 'enqueue', afterCommit: async (c) => void seen.push(`enqueue ${c.batch}`) });

    await steps.runSteps(runner, { batch: 7 });
    await steps.runAfterCommit({ batch: 7 });

    expect(seen).toEqual(['orders 7 true', 'outbox 7', 'enqueue 7']);
    expect(steps.names).toEqual({ steps: ['orders', 'outbox'], afterCommit: ['enqueue'] });
  });

  it('refuses a second registration under one name', () => {
    const steps = new WriterSteps<void>();
    steps.register({ name: 'orders', run: async () => {} });
    steps.registerAfterCommit({ name: 'enqueue', afterCommit: async () => {} });
    expect(() => steps.register({ name: 'orders', run: async () => {} })).toThrow('writer step "orders" is registered twice');
    expect(() => steps.registerAfterCommit({ name: 'enqueue', afterCommit: async () => {} })).toThrow(
      'after-commit hook "enqueue" is registered twice',
    );
  });

  it('stops at the first failing step, so the writer rolls back', async () => {
    const seen: string[] = [];
    const steps = new WriterSteps<void>();
    steps.register({
      name: 'a',
      run: async () => {
        throw new Error('a failed');
      },
    });
    steps.register({ name: 'b', run: async () => void seen.push('b') });
    await expect(steps.runSteps(runner)).rejects.toThrow('a failed');
    expect(seen).toEqual([]);
  });
});
