import type http from 'node:http';
import { log, logs, type LogFields } from '@/lib/runtime/log';
import { inRequest, requestIdFrom, type RequestContext } from '@/lib/runtime/request-context';
import { routeOf } from './metrics-endpoint';

// Probes (a load balancer's or Prometheus's, every few seconds) and the admin app's static files
// are logged at debug when they succeed: at info they would bury the requests that matter.
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics', '/_next']);

function byteLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/**
 * Writes the request's one line once its answer is sent, or its client went away first
 * (`aborted`): method, route (the endpoint's pattern, never ids), status, ms, body bytes sent,
 * its id and shop, why it was refused (`error`); at debug, the path without the query too.
 */
export function logRequest(req: http.IncomingMessage, res: http.ServerResponse, context: RequestContext): void {
  const started = performance.now();
  let bytes = 0;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    bytes += byteLength(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') bytes += byteLength(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as typeof res.end;
  res.once('close', () => {
    context.answered = true;
    const route = routeOf(req.url);
    const fields: LogFields = {
      method: req.method,
      route,
      // None when the client left before any was sent.
      status: res.headersSent ? res.statusCode : undefined,
      ms: Math.round((performance.now() - started) * 10) / 10,
      bytes,
      requestId: context.requestId,
      shopId: context.shopId,
    };
    if (context.error !== undefined) fields.error = context.error;
    if (!res.writableFinished) fields.aborted = true;
    const level = QUIET_ROUTES.has(route) && res.statusCode < 400 ? 'debug' : 'info';
    if (logs('debug')) {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== route) fields.path = path.slice(0, 1000);
    }
    log('request', fields, level);
  });
}

/**
 * The server's request handler, each request answered in a context of its own: its id (the
 * client's sane X-Request-Id, else a new UUID) goes out as X-Request-Id, every line logged while it
 * is answered carries it, and its own line is logged once answered, unless `unlogged` (the
 * server's warm-up).
 */
export function withRequestContext(
  unlogged: (req: http.IncomingMessage) => boolean,
  handler: (req: http.IncomingMessage, res: http.ServerResponse, requestId: string) => void,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    const context: RequestContext = { requestId: requestIdFrom(req.headers['x-request-id']) };
    res.setHeader('X-Request-Id', context.requestId);
    if (!unlogged(req)) logRequest(req, res, context);
    inRequest(context, () => handler(req, res, context.requestId));
  };
}
