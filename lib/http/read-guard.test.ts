import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { guardRead } from './read-guard';

describe('guardRead', () => {
  it('lets an address read its share a minute, then refuses with Retry-After, and forgets the old minute', () => {
    const minute = 60_000 * 1000;
    for (let i = 0; i < 5; i++) guardRead('10.0.0.1', 5, minute + i);
    let refused: unknown;
    try {
      guardRead('10.0.0.1', 5, minute + 10);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('RATE_LIMITED');
    expect((refused as AppError).retryAfterSeconds).toBe(60);
    // Other addresses are not affected.
    expect(() => guardRead('10.0.0.2', 5, minute + 10)).not.toThrow();
    // Halfway through the next minute half of the previous one still counts (2.5 of 5 used).
    expect(() => guardRead('10.0.0.1', 5, minute + 90_000)).not.toThrow();
    expect(() => guardRead('10.0.0.1', 5, minute + 90_001)).not.toThrow();
    expect(() => guardRead('10.0.0.1', 5, minute + 90_002)).not.toThrow();
    expect(() => guardRead('10.0.0.1', 5, minute + 90_003)).toThrow(AppError);
    // Two minutes later nothing counts.
    for (let i = 0; i < 5; i++) guardRead('10.0.0.1', 5, minute + 240_000 + i);
  });
});
