import { expect, it } from 'vitest';
import { secretMatches } from './authenticate';
import { hashSecret } from './secrets';

/** CPU ms the process (its threads and libuv's pool included) spends on `work`. */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

it('checks a secret sent by many requests at once with one scrypt, and a wrong one too', async () => {
  const hash = await hashSecret('right');
  const one = await cpuMs(() => secretMatches('shop-one', 'right', hash));
  // Remembered once verified: a cheap compare.
  expect(await cpuMs(() => secretMatches('shop-one', 'right', hash))).toBeLessThan(one / 4);
  // Another shop (not remembered), 30 requests at once: about one scrypt, not 30.
  const at = await cpuMs(async () => expect(await Promise.all(Array.from({ length: 30 }, () => secretMatches('shop-two', 'right', hash)))).toEqual(Array(30).fill(true)));
  expect(at).toBeLessThan(one * 5);
  const wrong = await cpuMs(async () => expect(await Promise.all(Array.from({ length: 30 }, () => secretMatches('shop-two', 'wrong', hash)))).toEqual(Array(30).fill(false)));
  expect(wrong).toBeLessThan(one * 5);
  // Different wrong guesses each pay their own.
  const guesses = await cpuMs(() => Promise.all(Array.from({ length: 12 }, (_, k) => secretMatches('shop-three', `guess-${k}`, hash))));
  expect(guesses).toBeGreaterThan(one * 6);
});
