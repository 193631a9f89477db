import { expect, it } from 'vitest';
import { AppError } from '@/lib/http/errors';
import { withReadSlot } from './in-flight';

it('refuses a read with 503 and Retry-After while the limit of reads run, and takes one again once a slot frees', async () => {
  const releases: (() => void)[] = [];
  const slow = () => withReadSlot(2, () => new Promise<string>((resolve) => releases.push(() => resolve('done'))));
  const first = slow();
  const second = slow();
  const refused = await withReadSlot(2, async () => 'ran').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(AppError);
  expect(refused).toMatchObject({ code: 'UNAVAILABLE', retryAfterSeconds: 1 });
  releases.shift()!();
  expect(await first).toBe('done');
  expect(await withReadSlot(2, async () => 'ran')).toBe('ran');
  // A read that fails gives its slot back too.
  await expect(withReadSlot(2, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(await withReadSlot(2, async () => 'again')).toBe('again');
  releases.shift()!();
  expect(await second).toBe('done');
  // 0: no limit.
  expect(await Promise.all(Array.from({ length: 5 }, () => withReadSlot(0, async () => 1)))).toEqual([1, 1, 1, 1, 1]);
});
