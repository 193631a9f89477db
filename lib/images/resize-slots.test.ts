import { expect, it } from 'vitest';
import { withResizeSlot } from './serve-image';

it('runs at most two resizes at once, the others in the order they came', async () => {
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const releases: (() => void)[] = [];
  const jobs = Array.from({ length: 5 }, (_, n) =>
    withResizeSlot(async () => {
      running++;
      most = Math.max(most, running);
      order.push(n);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
      return n;
    }),
  );
  while (order.length < 5) {
    await new Promise((resolve) => setImmediate(resolve));
    expect(running).toBeLessThanOrEqual(2);
    releases.shift()?.();
  }
  releases.forEach((release) => release());
  expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4]);
  expect(most).toBe(2);
  expect(order).toEqual([0, 1, 2, 3, 4]);
  // A failing resize gives its slot back.
  await expect(withResizeSlot(() => Promise.reject(new Error('bad')))).rejects.toThrow('bad');
  expect(await Promise.all([withResizeSlot(async () => 'a'), withResizeSlot(async () => 'b'), withResizeSlot(async () => 'c')])).toEqual(['a', 'b', 'c']);
});
