/**
 * What is one per process. Next.js loads a module once per route bundle and the process entry
 * (`bin/start.ts`) loads its own copy, so module-level state would exist several times; each piece
 * below hangs on `globalThis` under `Symbol.for('vitrine.<name>')` instead, shared by every copy.
 * Every such piece is listed here with what it holds; nothing else in the code touches
 * `globalThis` (lib/process-wide.test.ts). Worker threads have their own.
 */
const PIECES = {
  'app-context': 'the runtime: database pool, pg-boss, settings (lib/runtime/context.ts)',
  'import-waker': "wakes a shop's applier when an import arrives, in a process that applies them (lib/jobs/index.ts)",
  'import-handoff': "import bodies handed from intake to the applier without a trip through the database (lib/imports/pipeline/handoff.ts)",
  'scan-thread': 'the thread that scans large request bodies (lib/imports/pipeline/scan-thread.ts)',
  'read-guard': "storefront reads per client in the last minute (lib/http/read-guard.ts)",
  'prepare-worker': "the thread that prepares imports' items ahead (lib/imports/pipeline/prepare-ahead.ts)",
  'known-states': "each shop's product states as the applier last stored them (lib/imports/pipeline/known-states.ts)",
  'admin-trees': "the admin app's category and location trees with counts, per catalog version (lib/catalog/browse-trees.ts)",
  'listing-indexes': 'one listing index per shop, its refreshes and memory budget (lib/listing/index-store.ts)',
  'storefront-collections': 'collections as storefront reads last read them, briefly (lib/collections/manage-collections.ts)',
  'listing-in-flight': 'listing and collection reads being answered (lib/listing/in-flight.ts)',
  'layout-worker': "the thread that lays out a listing index's columns (lib/listing/indexing/layout-worker.ts)",
  'counting-worker': 'the second thread counting facets of large sets (lib/listing/engine/parallel-count.ts)',
  'auth-failures': 'failed authentications per client address and account in the last minute (lib/http/auth-failures.ts)',
  'lookup-limiter': "DNS lookups of outbound requests' hosts under way and their limit (lib/http/dns-lookup.ts)",
  'database-health': 'whether PostgreSQL is away, since when and why: API calls answer 503 meanwhile (lib/runtime/database-health.ts)',
  'metrics': "this thread's Prometheus registry and metrics (lib/runtime/metrics.ts)",
  'logger': "this thread's log: its level, and JSON lines or a terminal's (lib/runtime/log.ts)",
  'request-context': 'the request being answered, for its id in log lines (lib/runtime/request-context.ts)',
  'workers-probe': "whether this process's job workers' thread runs, for /readyz (lib/runtime/readiness.ts)",
} as const;

export type ProcessWideName = keyof typeof PIECES;

export type ProcessWide<T> = {
  get(): T | undefined;
  set(value: T | undefined): void;
  /** The value, made by `make` the first time in this process. */
  getOrMake(make: () => T): T;
};

/** The process-wide piece `name` (one of those listed above). */
export function processWide<T>(name: ProcessWideName): ProcessWide<T> {
  const key = Symbol.for(`vitrine.${name}`);
  const holder = globalThis as unknown as Record<symbol, T | undefined>;
  return {
    get: () => holder[key],
    set: (value) => {
      holder[key] = value;
    },
    getOrMake: (make) => (holder[key] ??= make()),
  };
}

/** What each process-wide piece holds, by name (for docs and tests). */
export const PROCESS_WIDE_PIECES: Readonly<Record<ProcessWideName, string>> = PIECES;
