import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { guardRead } from './read-guard';

function refusal(address: string, perMinute: number, now: number): AppError | undefined {
  try {
    guardRead(address, perMinute, now);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  return undefined;
}

describe('guardRead', () => {
  it('lets an address read its share a minute, then refuses with Retry-After until the oldest reads leave', () => {
    const start = 60_000 * 1000;
    for (let i = 0; i < 5; i++) expect(refusal('10.0.0.1', 5, start + i)).toBeUndefined();
    const refused = refusal('10.0.0.1', 5, start + 10);
    expect(refused?.code).toBe('RATE_LIMITED');
    // The reads at start count until their 2-second bucket leaves the window: 62 s.
    expect(refused?.retryAfterSeconds).toBe(62);
    // Other addresses are not affected.
    expect(refusal('10.0.0.2', 5, start + 10)).toBeUndefined();
    // A read is never forgotten before a minute has passed...
    expect(refusal('10.0.0.1', 5, start + 59_999)?.retryAfterSeconds).toBe(3);
    // ...and is once its bucket leaves.
    for (let i = 0; i < 5; i++) expect(refusal('10.0.0.1', 5, start + 62_000 + i)).toBeUndefined();
    expect(refusal('10.0.0.1', 5, start + 62_010)?.code).toBe('RATE_LIMITED');
    // Long after, nothing counts.
    for (let i = 0; i < 5; i++) expect(refusal('10.0.0.1', 5, start + 600_000 + i)).toBeUndefined();
  });

  it('slides: reads half a minute apart leave one after the other, and Retry-After names the first that makes room', () => {
    const start = 60_000 * 2000;
    for (let i = 0; i < 3; i++) guardRead('10.0.1.1', 5, start + i);
    for (let i = 0; i < 2; i++) guardRead('10.0.1.1', 5, start + 30_000 + i);
    expect(refusal('10.0.1.1', 5, start + 40_000)?.retryAfterSeconds).toBe(22);
    // The first three leave at 62 s; the two later ones still count.
    for (let i = 0; i < 3; i++) expect(refusal('10.0.1.1', 5, start + 62_000 + i)).toBeUndefined();
    expect(refusal('10.0.1.1', 5, start + 62_010)?.retryAfterSeconds).toBe(30);
  });

  it('refuses a burst that straddles the start of a minute', () => {
    // The old guard weighted the previous fixed minute by its overlap and let the fourth read pass.
    const minute = 60_000 * 3000;
    guardRead('10.0.2.1', 3, minute - 100);
    guardRead('10.0.2.1', 3, minute - 50);
    guardRead('10.0.2.1', 3, minute + 10);
    expect(refusal('10.0.2.1', 3, minute + 20)?.code).toBe('RATE_LIMITED');
  });
});
