import { expect, it } from 'vitest';
import { AppError } from '@/lib/http/errors';
import { BUSY, withReadSlot } from './in-flight';

const slowReads = (limits: Parameters<typeof withReadSlot>[0], count: number) => {
  const releases: (() => void)[] = [];
  const reads = Array.from({ length: count }, () => withReadSlot(limits, () => new Promise<string>((resolve) => releases.push(() => resolve('done')))));
  return { reads, release: () => releases.shift()!() };
};

it('refuses a read with 503 and Retry-After while the most reads run, and takes one again once a slot frees', async () => {
  const limits = { maxInFlight: 2, shedAfterMs: 0 };
  const { reads, release } = slowReads(limits, 2);
  const refused = await withReadSlot(limits, async () => 'ran').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(AppError);
  expect(refused).toMatchObject({ code: 'UNAVAILABLE', retryAfterSeconds: 1 });
  release();
  expect(await reads[0]).toBe('done');
  expect(await withReadSlot(limits, async () => 'ran')).toBe('ran');
  // A read that fails gives its slot back too.
  await expect(withReadSlot(limits, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(await withReadSlot(limits, async () => 'again')).toBe('again');
  release();
  expect(await reads[1]).toBe('done');
  // 0: no limit.
  expect(await Promise.all(Array.from({ length: 5 }, () => withReadSlot({ maxInFlight: 0, shedAfterMs: 0 }, async () => 1)))).toEqual([1, 1, 1, 1, 1]);
});

it('refuses a read once BUSY reads run and the oldest began shedAfterMs ago, not before', async () => {
  const limits = { maxInFlight: 0, shedAfterMs: 40 };
  // One read short of BUSY, however old: a slow read alone is not overload.
  const few = slowReads(limits, BUSY - 1);
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(await withReadSlot(limits, async () => 'ran')).toBe('ran');
  // BUSY reads, the oldest 60 ms old: refused.
  const more = slowReads(limits, 1);
  await expect(withReadSlot(limits, async () => 'ran')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  // The old ones done, BUSY young ones running: taken.
  for (let i = 0; i < BUSY - 1; i++) few.release();
  await Promise.all(few.reads);
  const young = slowReads(limits, BUSY - 1);
  expect(await withReadSlot(limits, async () => 'ran')).toBe('ran');
  more.release();
  for (let i = 0; i < BUSY - 1; i++) young.release();
  await Promise.all([...more.reads, ...young.reads]);
});
