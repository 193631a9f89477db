import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSettings } from './settings';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('webhook retries by default', () => {
  it('make at least 5 tries over at least 10 minutes (CONTRACT §3)', () => {
    vi.stubEnv('WEBHOOK_RETRY_LIMIT', '');
    vi.stubEnv('WEBHOOK_RETRY_DELAY_SECONDS', '');
    const { retryLimit, retryDelaySeconds } = readSettings().webhooks;
    expect(1 + retryLimit).toBeGreaterThanOrEqual(5);
    // pg-boss's back-off waits at least delay × 2^n before retry n + 1 (n from 0; the
    // deliver.int test measures it with a 1 s delay): the shortest schedule the defaults allow.
    const shortest = Array.from({ length: retryLimit }, (_, n) => retryDelaySeconds * 2 ** n).reduce((sum, wait) => sum + wait, 0);
    expect(shortest).toBeGreaterThanOrEqual(600);
  });

  it('refuses a setting that is not a non-negative integer, naming it', () => {
    vi.stubEnv('WEBHOOK_RETRY_LIMIT', 'five');
    expect(() => readSettings()).toThrow('WEBHOOK_RETRY_LIMIT must be a non-negative integer, got "five"');
  });
});
