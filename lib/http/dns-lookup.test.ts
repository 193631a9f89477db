import type dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { LOOKUPS_AT_ONCE, LookupLimiter } from './dns-lookup';

type Pending = { hostname: string; answer: (addresses: dns.LookupAddress[]) => void };

/** A stand-in resolver that answers only when the test says so: a resolver as slow as we like. */
function slowResolver() {
  const pending: Pending[] = [];
  const lookup = (hostname: string, _options: dns.LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => {
    pending.push({ hostname, answer: (addresses) => callback(null, addresses) });
  };
  return { pending, lookup };
}

const address = [{ address: '93.184.215.14', family: 4 }];
const settled = <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: Error) => ({ error: error.message }));

describe('LookupLimiter', () => {
  it('runs two look-ups at once and queues the rest', async () => {
    const resolver = slowResolver();
    const limiter = new LookupLimiter(resolver.lookup);
    const answers = ['a', 'b', 'c', 'd'].map((host) => limiter.resolve(host, {}, 5_000));
    expect(resolver.pending.map((p) => p.hostname)).toEqual(['a', 'b']);
    expect(limiter.inFlight).toBe(LOOKUPS_AT_ONCE);
    resolver.pending[0].answer(address);
    expect(await answers[0]).toEqual(address);
    expect(resolver.pending.map((p) => p.hostname)).toEqual(['a', 'b', 'c']);
    for (const p of resolver.pending.slice(1)) p.answer(address);
    await Promise.all(answers.slice(1, 3));
    resolver.pending[3].answer(address);
    expect(await answers[3]).toEqual(address);
    expect(limiter.inFlight).toBe(0);
  });

  it('gives up after the timeout, queueing included, while a stuck look-up keeps its slot', async () => {
    const resolver = slowResolver();
    const limiter = new LookupLimiter(resolver.lookup);
    const started = Date.now();
    const answers = ['a', 'b', 'c'].map((host) => settled(limiter.resolve(host, {}, 100)));
    for (const answer of await Promise.all(answers)) expect(answer).toEqual({ error: expect.stringMatching(/^DNS look-up of [abc] took longer than 100 ms$/) });
    expect(Date.now() - started).toBeLessThan(1_000);
    // The queued one never reached the resolver; the two stuck ones still hold the two slots.
    expect(resolver.pending.map((p) => p.hostname)).toEqual(['a', 'b']);
    expect(limiter.inFlight).toBe(2);
    const later = limiter.resolve('d', {}, 5_000);
    expect(resolver.pending).toHaveLength(2);
    // A stuck look-up that finally returns frees its slot for the next.
    resolver.pending[0].answer(address);
    expect(resolver.pending.map((p) => p.hostname)).toEqual(['a', 'b', 'd']);
    resolver.pending[2].answer(address);
    expect(await later).toEqual(address);
  });
});
