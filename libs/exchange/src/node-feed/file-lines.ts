import { open } from 'node:fs/promises';

export interface FileLine {
  text: string;
  /** Byte offset just after the line's newline: where reading resumes. */
  end: number;
}

const NEWLINE = 0x0a;

/** The least read buffer (unless the caller asks for smaller chunks): a file still growing is read on in these. */
const MIN_BUFFER_BYTES = 64 * 1024;

/**
 * Yields the complete lines of a file from a byte offset, reading it in chunks so a poll costs what was
 * appended, not the file's size. A last line without its newline may still be being written and is not
 * yielded. Lines are cut on the newline byte before decoding, so a multi-byte character split across two
 * chunks is decoded whole.
 *
 * One buffer serves every read of a call, sized to what the file holds past `from` when opened (at least
 * 64 KiB, at most `chunkBytes`): a new buffer per read, most of it unused, was external memory that made
 * V8 collect early.
 */
export async function* readCompleteLines(path: string, from: number, chunkBytes: number): AsyncGenerator<FileLine> {
  const handle = await open(path, 'r');
  try {
    const unread = (await handle.stat()).size - from;
    const buffer = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(unread, MIN_BUFFER_BYTES)));
    let pending = Buffer.alloc(0);
    let pendingStart = from;
    let position = from;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      const data = pending.length === 0 ? buffer.subarray(0, bytesRead) : Buffer.concat([pending, buffer.subarray(0, bytesRead)]);
      let lineStart = 0;
      for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, lineStart)) {
        yield { text: data.toString('utf8', lineStart, nl), end: pendingStart + nl + 1 };
        lineStart = nl + 1;
      }
      // A copy: the next read overwrites the buffer.
      pending = Buffer.from(data.subarray(lineStart));
      pendingStart += lineStart;
    }
  } finally {
    await handle.close();
  }
}

/** Everything from a byte offset to the end of the file, decoded; empty if there is nothing. */
export async function readRest(path: string, from: number): Promise<{ text: string; bytes: number }> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.max(0, size - from));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
    return { text: buffer.toString('utf8', 0, bytesRead), bytes: bytesRead };
  } finally {
    await handle.close();
  }
}
