/**
 * Runs `run(shopId)` when a shop is woken: as many shops at once as `concurrency`, the others
 * waiting their turn. A shop woken while its run is going is run once more after it (the run may
 * have looked for work already). A run that fails is reported and its shop woken again after
 * `retryMs`. `stop` wakes nothing more and waits for the runs going.
 */
export function shopWaker(run: (shopId: string) => Promise<void>, { concurrency, retryMs, onError }: { concurrency: number; retryMs: number; onError: (shopId: string, error: unknown) => void }) {
  // Each running shop: whether it was woken again meanwhile.
  const running = new Map<string, boolean>();
  const waiting = new Set<string>();
  let stopped = false;
  const idle: (() => void)[] = [];
  const start = (shopId: string) => {
    running.set(shopId, false);
    run(shopId)
      .catch((error: unknown) => {
        onError(shopId, error);
        setTimeout(() => wake(shopId), retryMs).unref();
      })
      .finally(() => {
        if (running.get(shopId)) waiting.add(shopId);
        running.delete(shopId);
        const next = waiting.values().next();
        if (!next.done && !stopped) {
          waiting.delete(next.value);
          start(next.value);
        }
        if (running.size === 0) idle.splice(0).forEach((resolve) => resolve());
      });
  };
  const wake = (shopId: string) => {
    if (stopped) return;
    if (running.has(shopId)) running.set(shopId, true);
    else if (running.size >= concurrency) waiting.add(shopId);
    else start(shopId);
  };
  const stop = async () => {
    stopped = true;
    if (running.size > 0) await new Promise<void>((resolve) => idle.push(resolve));
  };
  return { wake, stop };
}
