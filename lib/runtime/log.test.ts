import { describe, expect, it } from 'vitest';
import { describeError } from './log';

describe('describeError', () => {
  it('reads the shapes errors come in, never "[object Object]"', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    // As pg-boss emits a worker's failure: a plain object copied from the error.
    expect(describeError({ message: 'Connection terminated unexpectedly', stack: '…', queue: 'webhooks.deliver', worker: 'id' })).toBe(
      'Connection terminated unexpectedly [queue webhooks.deliver]',
    );
    expect(describeError({ code: '57P01', severity: 'FATAL' })).toBe('{"code":"57P01","severity":"FATAL"}');
    // Node's connection attempt to each address, refused.
    const refused = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' }), Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })], '');
    expect(describeError(refused)).toBe('connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432');
    expect(describeError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe('terminating connection due to administrator command (57P01)');
    expect(describeError('text')).toBe('text');
    expect(describeError(undefined)).toBe('undefined');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeError(cyclic)).toBe('unknown error');
    for (const shape of [{}, { message: {} }, [], new Error()]) expect(describeError(shape)).not.toContain('[object Object]');
  });
});
