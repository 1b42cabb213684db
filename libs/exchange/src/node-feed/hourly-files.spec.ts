import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { compareHourlyFiles, listHourlyFiles, parseHourlyName } from './hourly-files.js';
import { NodeDataDir } from '#testing';

describe('hourly files', () => {
  it('names are a UTC date and an hour without leading zero', () => {
    expect(parseHourlyName('20260628/8')).toEqual({ date: '20260628', hour: 8, name: '20260628/8' });
    expect(parseHourlyName('20260628/13')).toEqual({ date: '20260628', hour: 13, name: '20260628/13' });
    for (const name of ['20260628/24', '20260628/8.tmp', '2026062/8', '20260628', '20260628/8/x', 'x/8']) {
      expect(parseHourlyName(name)).toBeNull();
    }
  });

  it('sort by date, then by the hour as a number', () => {
    const names = ['20260628/10', '20260629/0', '20260628/9', '20260627/23', '20260628/13'];
    const sorted = names.map((n) => parseHourlyName(n)!).sort(compareHourlyFiles);
    expect(sorted.map((f) => f.name)).toEqual(['20260627/23', '20260628/9', '20260628/10', '20260628/13', '20260629/0']);
  });

  describe('listing', () => {
    let dir: NodeDataDir;
    beforeEach(async () => {
      dir = await NodeDataDir.create();
    });
    afterEach(async () => {
      await dir.remove();
    });

    it('lists a stream in write order, from a date on, and a missing stream as empty', async () => {
      for (const file of ['20260627/23', '20260628/10', '20260628/9', '20260629/0']) await dir.write('node_fills_by_block', file, '');
      const streamDir = `${dir.root}/node_fills_by_block`;
      expect((await listHourlyFiles(streamDir)).map((f) => f.name)).toEqual(['20260627/23', '20260628/9', '20260628/10', '20260629/0']);
      expect((await listHourlyFiles(streamDir, '20260628')).map((f) => f.name)).toEqual(['20260628/9', '20260628/10', '20260629/0']);
      expect(await listHourlyFiles(`${dir.root}/misc_events_by_block`)).toEqual([]);
    });
  });
});
