import { log } from '@/lib/runtime/log';
import { readSettings } from '@/lib/runtime/settings';

/**
 * Wall time of each step of taking in or applying one import, logged when IMPORT_TIMINGS=1: where
 * an import's time goes, without a profiler (`npm run bench:import` prints these lines).
 */
export class Phases {
  // Read at each import (a test turns it on in its own process).
  private readonly enabled = readSettings().importTimings;
  private last = performance.now();
  private readonly steps: string[] = [];

  mark(step: string): void {
    if (!this.enabled) return;
    const now = performance.now();
    this.steps.push(`${step} ${(now - this.last).toFixed(0)}`);
    this.last = now;
  }

  report(what: string): void {
    if (this.enabled) log(`import timings ${what}: ${this.steps.join(', ')} ms`);
  }
}
