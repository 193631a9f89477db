import { countPendingImports } from '@/lib/imports/run-imports';
import { loadedIndexes } from '@/lib/listing/index-store';
import type { AppContext } from '@/lib/runtime/context';
import { addGauge, collectProcessMetrics } from '@/lib/runtime/metrics';

/**
 * What every process's GET /metrics reads at each scrape besides its counters: the process (CPU,
 * memory, event-loop lag, GC) and the imports waiting in the database (all shops, all nodes).
 */
export function registerProcessGauges(ctx: AppContext): void {
  collectProcessMetrics();
  addGauge('vitrine_imports_pending', 'Imports accepted and not yet finished (queued or running), all shops', () => countPendingImports(ctx));
}

/** A serving process's gauges: those of every process, and the listing indexes it holds. */
export function registerServingGauges(ctx: AppContext): void {
  registerProcessGauges(ctx);
  addGauge('vitrine_listing_indexes', 'Listing indexes this process holds', () => loadedIndexes().length);
  addGauge('vitrine_listing_index_bytes', "Memory of this process's listing indexes, as their budget counts it", () => loadedIndexes().reduce((sum, index) => sum + index.bytes, 0));
}
