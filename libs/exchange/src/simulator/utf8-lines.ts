const UTF8 = new TextEncoder();
const FIRST_CAPACITY = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * "\n"-terminated lines encoded into one growing UTF-8 buffer as they come: each line's string is
 * garbage at once rather than kept (and copied by every scavenge) until its file is joined.
 */
export class Utf8Lines {
  private buffer = new Uint8Array(FIRST_CAPACITY);
  private length = 0;

  append(line: string): void {
    // At most 3 bytes per UTF-16 unit, and the newline.
    const room = line.length * 3 + 1;
    if (this.length + room > this.buffer.length) this.grow(this.length + room);
    this.length += UTF8.encodeInto(line, this.buffer.subarray(this.length)).written;
    this.buffer[this.length++] = NEWLINE;
  }

  /** The lines so far: a view of the buffer, which no other Utf8Lines shares (so it can be transferred). */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  private grow(needed: number): void {
    const larger = new Uint8Array(Math.max(needed, this.buffer.length * 2));
    larger.set(this.buffer.subarray(0, this.length));
    this.buffer = larger;
  }
}
