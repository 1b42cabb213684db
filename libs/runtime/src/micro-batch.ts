interface Waiting<In, Out> {
  input: In;
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the calls made while a batch is being prepared or run, and runs them as one: the calls of
 * one turn of the event loop go together, and while a batch runs the next one fills (as a database's
 * group commit does). One round trip then serves many concurrent callers.
 *
 * `run` answers one output per input, in order. When it throws, every call of that batch rejects.
 */
export class MicroBatch<In, Out> {
  private waiting: Array<Waiting<In, Out>> = [];
  private busy = false;

  constructor(
    private readonly run: (inputs: In[]) => Promise<Out[]>,
    private readonly maxSize = 500,
  ) {}

  submit(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.busy) {
        this.busy = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxSize);
      try {
        const outputs = await this.run(batch.map((w) => w.input));
        if (outputs.length !== batch.length) throw new Error(`a batch of ${batch.length} answered ${outputs.length} results`);
        batch.forEach((w, i) => w.resolve(outputs[i]!));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.busy = false;
  }
}
