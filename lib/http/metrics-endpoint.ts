import http from 'node:http';
import { metrics, metricsAllowed, metricsText, type metricsJson } from '@/lib/runtime/metrics';
import { errorBody } from './respond';

// GET /metrics on the service's own port (bin/start.ts, before Next.js) and on a worker node's
// METRICS_PORT (bin/worker.ts), and the route label of every other request.

/** A request's route as a label: the endpoint's pattern, never the ids in the path (few series). */
export function routeOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0];
  if (path === '/products' || path === '/init' || path === '/openapi.json' || path === '/docs' || path === '/healthz' || path === '/readyz' || path === '/metrics') return path;
  if (path.startsWith('/import/')) return /^\/import\/[a-z]+$/.test(path) ? path : '/import/*';
  if (path.startsWith('/collection/')) return '/collection/:id';
  if (path.startsWith('/images/')) return '/images/:size/:key';
  if (path.startsWith('/subscriptions/')) return '/subscriptions/*';
  if (path.startsWith('/admin/api/')) return '/admin/api';
  if (path === '/admin' || path.startsWith('/admin/')) return '/admin';
  if (path.startsWith('/_next/')) return '/_next';
  return 'other';
}

/** Counts an answered request once it is sent. */
export function countRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
  const started = performance.now();
  res.once('finish', () => {
    const route = routeOf(req.url);
    const method = req.method ?? 'GET';
    const { httpRequests, httpDuration } = metrics();
    httpRequests.inc({ route, method, status: String(res.statusCode) });
    httpDuration.observe({ route, method }, (performance.now() - started) / 1000);
  });
}

/**
 * Answers GET /metrics: 401 with the error body without the token (METRICS_TOKEN), else this
 * thread's metrics with those `others` gives (other threads', as JSON).
 */
export async function answerMetrics(req: http.IncomingMessage, res: http.ServerResponse, token: string | undefined, others: () => Promise<Awaited<ReturnType<typeof metricsJson>>[]>): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { 'Content-Type': 'application/json', Allow: 'GET, HEAD' }).end(JSON.stringify(errorBody('Method not allowed; /metrics takes GET')));
    return;
  }
  if (!metricsAllowed(token, req.headers.authorization)) {
    res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer' }).end(JSON.stringify(errorBody('Metrics need Authorization: Bearer <METRICS_TOKEN>')));
    return;
  }
  const { contentType, body } = await metricsText(await others());
  res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
}

/** A server of GET /metrics alone (a worker node's METRICS_PORT); its address and how to stop it. */
export async function serveMetricsAlone(port: number, host: string, token: string | undefined): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (routeOf(req.url) !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify(errorBody('Only /metrics is served on this port')));
      return;
    }
    void answerMetrics(req, res, token, async () => []).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify(errorBody('Metrics could not be read')));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as { port: number };
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
