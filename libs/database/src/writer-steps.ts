import type { SqlRunner } from './sql/sql-runner.js';

/** Work that must commit or roll back with a writer's transaction (open orders, the alert outbox). */
export interface TransactionStep<C> {
  readonly name: string;
  run(q: SqlRunner, context: C): Promise<void>;
}

/** Work that must follow a writer's commit and see only committed rows (the BullMQ enqueue). */
export interface AfterCommitHook<C> {
  readonly name: string;
  afterCommit(context: C): Promise<void>;
}

/**
 * The steps and hooks registered with one writer. The writer runs its own statements, then every step
 * in registration order inside its transaction, commits, then every hook in registration order. The
 * writer names none of them: a feature registers itself (see OpenOrdersStep), so the writer's folder
 * imports no feature's.
 *
 * A step that throws rolls the whole transaction back. A hook that throws rejects the writer's call
 * after the commit: the rows are stored and a retry of the same input skips them, so a hook whose work
 * must not be lost keeps its own recovery from the database (the outbox reconciler re-enqueues what the
 * enqueue hook did not).
 */
export class WriterSteps<C> {
  private readonly steps: TransactionStep<C>[] = [];
  private readonly hooks: AfterCommitHook<C>[] = [];

  register(step: TransactionStep<C>): void {
    if (this.steps.some((s) => s.name === step.name)) throw new Error(`writer step "${step.name}" is registered twice`);
    this.steps.push(step);
  }

  registerAfterCommit(hook: AfterCommitHook<C>): void {
    if (this.hooks.some((h) => h.name === hook.name)) throw new Error(`after-commit hook "${hook.name}" is registered twice`);
    this.hooks.push(hook);
  }

  /** Names in run order: what a writer runs, for logs and tests. */
  get names(): { steps: string[]; afterCommit: string[] } {
    return { steps: this.steps.map((s) => s.name), afterCommit: this.hooks.map((h) => h.name) };
  }

  async runSteps(q: SqlRunner, context: C): Promise<void> {
    for (const step of this.steps) await step.run(q, context);
  }

  async runAfterCommit(context: C): Promise<void> {
    for (const hook of this.hooks) await hook.afterCommit(context);
  }
}
