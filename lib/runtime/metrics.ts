import crypto from 'node:crypto';
import client from 'prom-client';
import { processWide } from '@/lib/process-wide';

// The service's Prometheus metrics (GET /metrics). Each thread that does the work counts it in
// its own registry: the serving thread (requests, intake, listings, index builds) and the job
// workers' thread (imports applied, webhooks, emails), whose figures the serving thread asks for
// at each scrape and adds to its own (`metricsText`). Process-wide: Next.js loads this module
// once per route bundle.

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LONG_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

function makeMetrics() {
  const registry = new client.Registry();
  const registers = [registry];
  return {
    registry,
    httpRequests: new client.Counter({ name: 'vitrine_http_requests_total', help: 'HTTP requests answered, by route, method and status', labelNames: ['route', 'method', 'status'], registers }),
    httpDuration: new client.Histogram({ name: 'vitrine_http_request_duration_seconds', help: 'Time from a request received to its answer sent, by route and method', labelNames: ['route', 'method'], buckets: SECONDS, registers }),
    importsAccepted: new client.Counter({ name: 'vitrine_imports_accepted_total', help: 'Imports accepted by intake (answered 204), by operation', labelNames: ['operation'], registers }),
    importsFinished: new client.Counter({ name: 'vitrine_imports_finished_total', help: 'Imports applied to the end, by operation and status (done or failed)', labelNames: ['operation', 'status'], registers }),
    itemsApplied: new client.Counter({ name: 'vitrine_import_items_applied_total', help: 'Items applied by finished imports, by operation', labelNames: ['operation'], registers }),
    applyDuration: new client.Histogram({ name: 'vitrine_import_apply_duration_seconds', help: 'Time from an import started to finished, by operation', labelNames: ['operation'], buckets: LONG_SECONDS, registers }),
    listingDuration: new client.Histogram({ name: 'vitrine_listing_duration_seconds', help: "Time to answer a listing, by the shop's size in products", labelNames: ['shop_size'], buckets: SECONDS, registers }),
    indexBuilds: new client.Counter({ name: 'vitrine_listing_index_builds_total', help: 'Listing indexes built (full) or brought up to date (refresh)', labelNames: ['kind'], registers }),
    indexBuildDuration: new client.Histogram({ name: 'vitrine_listing_index_build_duration_seconds', help: 'Time to build or refresh a listing index', labelNames: ['kind'], buckets: LONG_SECONDS, registers }),
    webhookDeliveries: new client.Counter({ name: 'vitrine_webhook_deliveries_total', help: 'Webhook delivery attempts, by outcome (delivered, failed, refused)', labelNames: ['outcome'], registers }),
    emails: new client.Counter({ name: 'vitrine_emails_total', help: 'Emails of the outbox handled, by outcome (sent, failed, kept: no SMTP_URL)', labelNames: ['outcome'], registers }),
  };
}

export type Metrics = ReturnType<typeof makeMetrics>;
const METRICS = processWide<Metrics>('metrics');

/** This thread's metrics. */
export function metrics(): Metrics {
  return METRICS.getOrMake(makeMetrics);
}

/** A listing shop's size as a label: few, so that series stay few. */
export function shopSizeBucket(products: number): string {
  if (products <= 1_000) return '1k';
  if (products <= 10_000) return '10k';
  if (products <= 100_000) return '100k';
  if (products <= 1_000_000) return '1M';
  return 'over 1M';
}

/** The process's own metrics (CPU, memory, event-loop lag, GC), once, in this thread's registry. */
export function collectProcessMetrics(): void {
  const registry = metrics().registry;
  if (registry.getSingleMetric('process_cpu_user_seconds_total')) return;
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
}

/** This thread's metrics as JSON, for another thread to add to its own. */
export function metricsJson(): Promise<client.MetricObjectWithValues<client.MetricValue<string>>[]> {
  return metrics().registry.getMetricsAsJSON();
}

/** The Prometheus text of this thread's metrics with those of other threads (`others`) added. */
export async function metricsText(others: Awaited<ReturnType<typeof metricsJson>>[]): Promise<{ contentType: string; body: string }> {
  const registry = metrics().registry;
  if (others.length === 0) return { contentType: registry.contentType, body: await registry.metrics() };
  const merged = client.AggregatorRegistry.aggregate([await registry.getMetricsAsJSON(), ...others]);
  return { contentType: registry.contentType, body: await merged.metrics() };
}

/** Whether `authorization` carries METRICS_TOKEN (any, when none is set), compared in constant time. */
export function metricsAllowed(token: string | undefined, authorization: string | undefined): boolean {
  if (!token) return true;
  const sent = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (text: string) => crypto.createHash('sha256').update(text).digest();
  return crypto.timingSafeEqual(digest(sent), digest(token));
}

/** A gauge read at each scrape from `read` (once per name: a second call changes nothing). */
export function addGauge(name: string, help: string, read: () => number | Promise<number>): void {
  const registry = metrics().registry;
  if (registry.getSingleMetric(name)) return;
  new client.Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      this.set(await read());
    },
  });
}
