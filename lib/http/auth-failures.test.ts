import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { assertNotLockedOut, noteAuthFailure } from './auth-failures';

describe('failed-authentication guard', () => {
  it('locks an address out after the limit within a minute, then lets it back in', () => {
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      assertNotLockedOut('10.0.0.1', 3, t0 + i);
      noteAuthFailure('10.0.0.1', t0 + i);
    }
    let error: unknown;
    try {
      assertNotLockedOut('10.0.0.1', 3, t0 + 10_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('RATE_LIMITED');
    expect((error as AppError).retryAfterSeconds).toBe(50);
    // Another address is not affected; the first is free once its failures are a minute old.
    expect(() => assertNotLockedOut('10.0.0.2', 3, t0 + 10_000)).not.toThrow();
    expect(() => assertNotLockedOut('10.0.0.1', 3, t0 + 60_003)).not.toThrow();
  });
});
