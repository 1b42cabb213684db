import { describe, expect, it } from '@jest/globals';
import type { AppConfig } from '#config';
import { warnIfLoopbackAllowed } from './signed-delivery.js';

describe('warnIfLoopbackAllowed', () => {
  it('warns once per process when WEBHOOK_ALLOW_LOOPBACK is on, and says nothing when it is off', () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => void warnings.push(message) };
    warnIfLoopbackAllowed({ WEBHOOK_ALLOW_LOOPBACK: false } as AppConfig, logger);
    expect(warnings).toEqual([]);
    warnIfLoopbackAllowed({ WEBHOOK_ALLOW_LOOPBACK: true } as AppConfig, logger);
    warnIfLoopbackAllowed({ WEBHOOK_ALLOW_LOOPBACK: true } as AppConfig, logger);
    expect(warnings).toEqual([
      'WEBHOOK_ALLOW_LOOPBACK is on: webhooks may reach this machine (loopback, and plain http to loopback only); it is for tests, never production',
    ]);
  });
});
