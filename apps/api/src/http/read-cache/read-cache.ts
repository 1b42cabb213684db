import { JsonText } from '#database';
import { WithMessage } from '#market';
import { SealedJsonText } from './sealed-json-text.js';

/** What a route's handler returned, kept as JSON text (and its bytes) so a reuse costs no serialisation. */
export type CachedAnswer = SealedJsonText | WithMessage<JsonText>;

interface Entry {
  readonly answer: CachedAnswer;
  readonly bytes: number;
}

/**
 * A handler's answer as JSON text: text is kept as it is, an object serialised once, a note kept beside
 * its data (the envelope writes them out together). A string is sent by express as it is, so a route
 * returning one has made it JSON already.
 */
export function asJsonText(answer: unknown): CachedAnswer {
  if (answer instanceof WithMessage) return new WithMessage(new JsonText(textOf(answer.data)), answer.message);
  return new SealedJsonText(textOf(answer));
}

const textOf = (answer: unknown): string =>
  answer instanceof JsonText ? answer.text : typeof answer === 'string' ? answer : JSON.stringify(answer);

const sizeOf = (key: string, answer: CachedAnswer): number =>
  key.length + (answer instanceof WithMessage ? answer.data.text.length + answer.message.length : answer.text.length + answer.bytes.length);

/**
 * Rendered answers by key, the least recently used dropped first once their text passes `maxBytes`.
 * Concurrent requests for a key nobody has rendered yet share one rendering: 16 requests arriving
 * together after a state update run the route's statements once, not 16 times. A failed rendering is
 * not kept: each of its waiters gets its error, the next request renders again.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly rendering = new Map<string, Promise<CachedAnswer>>();
  private bytes = 0;
  /** Requests answered from a kept answer, by joining a rendering under way, or by rendering. */
  readonly counts = { hit: 0, shared: 0, rendered: 0 };

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** The answer kept under `key`, else `render`'s (kept if it fits). */
  async answer(key: string, render: () => Promise<unknown>): Promise<CachedAnswer> {
    const entry = this.entries.get(key);
    if (entry) {
      // Map order is insertion order: moved to the end, it is the most recently used.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.counts.hit++;
      return entry.answer;
    }
    const pending = this.rendering.get(key);
    if (pending) {
      this.counts.shared++;
      return pending;
    }
    this.counts.rendered++;
    const rendered = render().then(asJsonText);
    this.rendering.set(key, rendered);
    try {
      const answer = await rendered;
      this.keep(key, answer);
      return answer;
    } finally {
      this.rendering.delete(key);
    }
  }

  /** Entries and their bytes, for the metrics and tests. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private keep(key: string, answer: CachedAnswer): void {
    const bytes = sizeOf(key, answer);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { answer, bytes });
    this.bytes += bytes;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.bytes;
    }
  }
}
