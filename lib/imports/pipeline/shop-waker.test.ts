import { describe, expect, it } from 'vitest';
import { shopWaker } from './shop-waker';

/** Runs that end when told to, logged as they start. */
function controlledRuns() {
  const started: string[] = [];
  const ends = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  const run = (shopId: string) =>
    new Promise<void>((resolve, reject) => {
      started.push(shopId);
      ends.set(shopId, { resolve, reject });
    });
  const settle = async (shopId: string, error?: Error) => {
    const end = ends.get(shopId)!;
    ends.delete(shopId);
    if (error) end.reject(error);
    else end.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { run, started, settle };
}

describe('shopWaker', () => {
  it('runs as many shops at once as allowed, the others after, each once', async () => {
    const runs = controlledRuns();
    const waker = shopWaker(runs.run, { concurrency: 2, retryMs: 10_000, onError: () => {} });
    for (const shop of ['a', 'b', 'c', 'c']) waker.wake(shop);
    expect(runs.started).toEqual(['a', 'b']);
    await runs.settle('a');
    expect(runs.started).toEqual(['a', 'b', 'c']);
    await runs.settle('b');
    await runs.settle('c');
    expect(runs.started).toEqual(['a', 'b', 'c']);
  });

  it('runs a shop once more when woken during its run', async () => {
    const runs = controlledRuns();
    const waker = shopWaker(runs.run, { concurrency: 2, retryMs: 10_000, onError: () => {} });
    waker.wake('a');
    waker.wake('a');
    expect(runs.started).toEqual(['a']);
    await runs.settle('a');
    expect(runs.started).toEqual(['a', 'a']);
    await runs.settle('a');
    expect(runs.started).toEqual(['a', 'a']);
  });

  it('reports a failed run and wakes its shop again after the delay', async () => {
    const runs = controlledRuns();
    const errors: string[] = [];
    const waker = shopWaker(runs.run, { concurrency: 1, retryMs: 20, onError: (shop, error) => errors.push(`${shop}: ${(error as Error).message}`) });
    waker.wake('a');
    await runs.settle('a', new Error('database gone'));
    expect(errors).toEqual(['a: database gone']);
    expect(runs.started).toEqual(['a']);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(runs.started).toEqual(['a', 'a']);
    await runs.settle('a');
  });

  it('wakes nothing once stopped, and waits for the runs going', async () => {
    const runs = controlledRuns();
    const waker = shopWaker(runs.run, { concurrency: 1, retryMs: 10_000, onError: () => {} });
    waker.wake('a');
    waker.wake('b');
    let stopped = false;
    const stopping = waker.stop().then(() => (stopped = true));
    waker.wake('c');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(stopped).toBe(false);
    await runs.settle('a');
    await stopping;
    expect(runs.started).toEqual(['a']);
  });
});
