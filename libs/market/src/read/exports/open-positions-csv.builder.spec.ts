import { describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { neutralisedTextCell, OPEN_POSITION_CSV_COLUMNS, openPositionsCsv } from './open-positions-csv.builder.js';

describe('neutralisedTextCell', () => {
  it('puts a single quote before a cell that starts like a formula', () => {
    expect(neutralisedTextCell('=HYPERLINK("http://x","y")')).toBe(`'=HYPERLINK("http://x","y")`);
    expect(neutralisedTextCell('+1')).toBe("'+1");
    expect(neutralisedTextCell('-2+3')).toBe("'-2+3");
    expect(neutralisedTextCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutralisedTextCell('\t=1')).toBe("'\t=1");
    expect(neutralisedTextCell('\r=1')).toBe("'\r=1");
  });

  it('leaves every other cell as it is', () => {
    for (const plain of ['BTC', 'xyz:TSLA', 'a=b', 'x-1', '', "'=already", ' =1', '0x00000000000000000000000000000000000000a1']) {
      expect(neutralisedTextCell(plain)).toBe(plain);
    }
  });
});

describe('openPositionsCsv', () => {
  const row = (overrides: Record<number, string>) => OPEN_POSITION_CSV_COLUMNS.map((_, i) => overrides[i] ?? String(i));

  it('neutralises the text columns only: negative decimals in numeric columns stay numbers', async () => {
    const csv = await text(
      Readable.from([row({ 1: '@evil', 2: '=1+2', 3: '-short', 4: '+dex', 8: '-12.5', 5: '-0.003', 18: '-500' })]).pipe(openPositionsCsv()),
    );
    const [header, cells] = parse(csv) as string[][];
    expect(header).toEqual(OPEN_POSITION_CSV_COLUMNS.map((c) => c.name));
    expect(cells!.slice(1, 5)).toEqual(["'@evil", "'=1+2", "'-short", "'+dex"]);
    expect([cells![5], cells![8], cells![18]]).toEqual(['-0.003', '-12.5', '-500']);
    expect(OPEN_POSITION_CSV_COLUMNS.filter((c) => c.text).map((c) => c.name)).toEqual(['address', 'coin', 'side', 'dex']);
  });
});
