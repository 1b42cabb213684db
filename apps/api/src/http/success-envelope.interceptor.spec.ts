import { describe, expect, it } from '@jest/globals';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import { firstValueFrom, of } from 'rxjs';
import { JsonText } from '#database';
import { WithMessage } from '#market';
import { SegmentsController } from '../segments/segments.controller.js';
import { StateStatusController } from '../state-status/state-status.controller.js';
import { UsageController } from '../usage/usage.controller.js';
import { SuccessEnvelopeInterceptor } from './success-envelope.interceptor.js';

const enveloped = (result: unknown): Promise<unknown> => {
  const next: CallHandler = { handle: () => of(result) };
  return firstValueFrom(new SuccessEnvelopeInterceptor().intercept({} as ExecutionContext, next));
};
const bodyOf = async (result: unknown): Promise<string> => JSON.stringify(await enveloped(result));

describe('SuccessEnvelopeInterceptor', () => {
  it('wraps the data, and puts a WithMessage note after it', async () => {
    expect(await bodyOf({ used: 1 })).toBe('{"status":"success","data":{"used":1}}');
    expect(await bodyOf(new WithMessage({ height: null }, 'No exchange state has been processed yet.'))).toBe(
      '{"status":"success","data":{"height":null},"message":"No exchange state has been processed yet."}',
    );
  });

  it('writes the envelope around data Postgres rendered as JSON, which stays text', async () => {
    const body = await enveloped(new JsonText('[{"px":1.5}]'));
    expect(body).toBeInstanceOf(JsonText);
    expect((body as JsonText).text).toBe('{"status":"success","data":[{"px":1.5}]}');
    const noted = await enveloped(new WithMessage(new JsonText('[]'), 'Nothing yet.'));
    expect((noted as JsonText).text).toBe('{"status":"success","data":[],"message":"Nothing yet."}');
  });

  it('is on the routes whose body the contract leaves open, and off segments (the benchmarked route)', () => {
    const interceptors = (handler: object): unknown => Reflect.getMetadata(INTERCEPTORS_METADATA, handler);
    expect(interceptors(StateStatusController.prototype.status)).toEqual([SuccessEnvelopeInterceptor]);
    expect(interceptors(UsageController.prototype.usage)).toEqual([SuccessEnvelopeInterceptor]);
    expect(interceptors(SegmentsController.prototype.list)).toBeUndefined();
    expect(interceptors(SegmentsController)).toBeUndefined();
  });
});
