import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonLogger } from './json-logger.js';

describe('JsonLogger', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  function logTo(level: 'info' | 'warn' = 'info'): { logger: JsonLogger; lines: () => Array<Record<string, unknown>>; close: () => void } {
    const file = join(mkdtempSync(join(tmpdir(), 'tw-log-')), 'out.log');
    const fd = openSync(file, 'w');
    const logger = new JsonLogger(level, 'api', fd);
    return {
      logger,
      lines: () => {
        logger.flush();
        return readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      },
      close: () => closeSync(fd),
    };
  }

  it('stamps access lines with the ISO time to the millisecond, across second boundaries', () => {
    const { logger, lines, close } = logTo();
    jest.useFakeTimers({ now: Date.parse('2026-11-21T23:09:05.007Z'), doNotFake: ['setImmediate'] });
    logger.writeRaw('"msg":"request","status":200');
    jest.setSystemTime(Date.parse('2026-11-21T23:09:05.999Z'));
    logger.writeRaw('"msg":"request","status":201');
    jest.setSystemTime(Date.parse('2026-11-21T23:09:06.040Z'));
    logger.writeRaw('"msg":"request","status":404');
    jest.setSystemTime(Date.parse('2027-01-01T00:00:00.000Z'));
    logger.write('info', 'plain', { n: 1 });
    expect(lines()).toEqual([
      { level: 'info', time: '2026-11-21T23:09:05.007Z', app: 'api', msg: 'request', status: 200 },
      { level: 'info', time: '2026-11-21T23:09:05.999Z', app: 'api', msg: 'request', status: 201 },
      { level: 'info', time: '2026-11-21T23:09:06.040Z', app: 'api', msg: 'request', status: 404 },
      { level: 'info', time: '2027-01-01T00:00:00.000Z', app: 'api', msg: 'plain', n: 1 },
    ]);
    close();
  });

  it('drops lines below its level', () => {
    const { logger, lines, close } = logTo('warn');
    logger.writeRaw('"msg":"request"');
    logger.write('info', 'started');
    logger.write('warn', 'slow', { ms: 900 });
    expect(lines()).toEqual([{ level: 'warn', time: expect.any(String), app: 'api', msg: 'slow', ms: 900 }]);
    close();
  });
});
