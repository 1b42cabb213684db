/**
 * One read shared by every caller that asks for it before it is sent. The read is sent on the event loop's
 * next turn, so requests parsed in the same turn wait for one round trip instead of one each; a caller
 * that asks after it was sent gets the next read. Each caller's read is therefore sent after it asked:
 * it sees every commit that came before the caller's request, as a read of its own would.
 */
export class NextTurnRead<T> {
  private pending: Promise<T> | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (this.pending) return this.pending;
    const pending: Promise<T> = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.pending = null;
      return this.read();
    });
    this.pending = pending;
    return pending;
  }
}
