import { describe, expect, it } from '@jest/globals';
import { Utf8Lines } from './utf8-lines.js';

describe('Utf8Lines', () => {
  it('holds the lines as UTF-8, each ended by a newline, across growths of its buffer', () => {
    const lines = new Utf8Lines();
    const written: string[] = [];
    for (let i = 0; i < 3_000; i++) {
      const line = i % 7 === 0 ? `{"n":${i},"s":"é€𝄞"}` : `{"n":${i},"pad":"${'x'.repeat(i % 97)}"}`;
      lines.append(line);
      written.push(line);
    }
    lines.append('y'.repeat(300_000));
    written.push('y'.repeat(300_000));
    expect(Buffer.from(lines.bytes()).toString('utf8')).toBe(`${written.join('\n')}\n`);
  });

  it('is empty before a line', () => {
    expect(new Utf8Lines().bytes().byteLength).toBe(0);
  });
});
