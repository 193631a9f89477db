// npm start: the public API, the admin app and (unless WORKERS=off) the job workers, in one process.
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import { ENCODED_BODY_HEADER, errorBody } from '@/lib/http/respond';
import { answerClientError, clientErrorAnswer, refuseMalformedRequest, sendRefusal, trackAnswer, withoutEmptySegments } from '@/lib/http/malformed-request';
import { adminPage, adminPagePolicy, pageNonce, refuseCrossSite } from '@/lib/http/admin-requests';
import { startScanThread } from '@/lib/imports/pipeline';
import { ensureBuild } from '@/lib/runtime/build';
import { boot } from '@/lib/runtime/boot';
import { readSettings } from '@/lib/runtime/settings';
import { onShutdownSignal } from '@/lib/runtime/signals';
import { startWorkerThread, workerThreadMetrics } from '@/workers/thread-host';
import { answerMetrics, countRequest } from '@/lib/http/metrics-endpoint';
import { registerServingGauges } from '@/lib/observability/serving-gauges';
import { ignoreBrokenStdio, log, logConsole } from '@/lib/runtime/log';
import { withRequestContext } from '@/lib/http/request-log';
import { watchEventLoop } from '@/lib/runtime/loop-watch';
import { answerDirectly, matchDirectRoute, type DirectRoute } from '@/lib/http/direct-routes';
import * as collectionRoute from '@/app/collection/[id]/route';
import * as productsRoute from '@/app/products/route';

// Storefront reads answered by their route handlers without Next.js's request handling (see
// lib/http/direct-routes.ts). Not in development, where Next.js reloads the routes as they change.
const DIRECT_ROUTES: DirectRoute[] = [
  { method: 'GET', path: '/products', handler: productsRoute.GET },
  { method: 'POST', path: '/products', handler: productsRoute.POST },
  { method: 'GET', path: '/collection/:id', handler: collectionRoute.GET },
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WARM_UP_HEADER = 'x-vitrine-warm-up';
const warmUpToken = crypto.randomBytes(16).toString('hex');
const isWarmUp = (req: http.IncomingMessage) => req.headers[WARM_UP_HEADER] === warmUpToken;

// Running imports are left after this long: their records stay pending (the next start's sweep
// applies them), and the database and the embedded PostgreSQL are still stopped cleanly.
const WORKERS_STOP_MS = 10_000;
/** How long an idle keep-alive connection is kept (see where the server is made). */
const KEEP_ALIVE_MS = 65_000;

async function stopWithin(stop: () => Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      log(`workers still busy after ${ms / 1000} s: left to the next start`, undefined, 'warn');
      resolve();
    }, ms);
  });
  await Promise.race([stop().catch((error) => log('stopping workers failed', { err: error }, 'error')), late]);
  clearTimeout(timer);
}

async function main() {
  ignoreBrokenStdio();
  logConsole();
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  const settings = readSettings();
  const dev = process.argv.includes('--dev');
  if (!dev) ensureBuild(root, log);
  const runtime = await boot({ maintenance: settings.workers, poolSize: settings.databasePoolSize });
  // Large request bodies (imports) are checked off this thread, which also applies imports.
  startScanThread();
  // The job workers (imports applied, webhooks, emails) on a thread of their own: their work does
  // not hold up this thread's requests.
  const stopWorkers = settings.workers ? await startWorkerThread(runtime.databaseUrl, !settings.databaseUrl) : undefined;

  const app = next({ dev, dir: root, hostname: settings.host, port: settings.port });
  const handle = app.getRequestHandler();
  await app.prepare();
  registerServingGauges(runtime.ctx);
  // Host is checked with the other malformed requests, so its absence gets the error body too.
  // Each request is answered in a context of its own (withRequestContext): its id goes out as
  // X-Request-Id and on every line logged meanwhile, and its line is logged once it is answered.
  const server = http.createServer({ requireHostHeader: false }, withRequestContext(isWarmUp, (req, res, requestId) => {
    trackAnswer(req, res);
    const sentPath = (req.url ?? '').split('?')[0];
    const refusal = refuseMalformedRequest(req.method, req.url, req.headers.host, req.httpVersion) ?? refuseCrossSite(req.method!, sentPath, req.headers, settings.publicUrl);
    if (refusal) return sendRefusal(res, refusal);
    // `/products/` is `/products` (admin pages keep the framework's redirect: see withoutEmptySegments).
    const served = adminPage(sentPath) ? undefined : withoutEmptySegments(req.url!);
    if (served !== undefined) req.url = served;
    const path = (req.url ?? '').split('?')[0];
    // GET /metrics (Prometheus) is answered here, with the workers' thread's figures added.
    if (path === '/metrics') {
      void answerMetrics(req, res, settings.metricsToken, workerThreadMetrics).catch((error: unknown) => {
        log('metrics could not be read', { err: error }, 'error');
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify(errorBody('Metrics could not be read')));
      });
      return;
    }
    if (adminPage(path)) {
      // An admin page: Next.js puts the nonce of the request's policy on every script it writes.
      const policy = adminPagePolicy(pageNonce(), dev);
      req.headers['content-security-policy'] = policy;
      res.setHeader('Content-Security-Policy', policy);
    }
    // Route handlers see only a Request: hand them the peer address, overwriting anything a
    // client may have sent under that name.
    req.headers['x-vitrine-client-address'] = req.socket.remoteAddress ?? 'unknown';
    // This process's own warm-up requests (warmRoutes) count against no client's read budget,
    // and in no metric or log.
    if (isWarmUp(req)) req.headers['x-vitrine-client-address'] = `warm-up ${warmUpToken}`;
    else countRequest(req, res);
    delete req.headers[WARM_UP_HEADER];
    // Next drops a route handler's Content-Encoding (it may have decoded a fetched body): a route
    // whose body is encoded already says so under ENCODED_BODY_HEADER, and it goes out as
    // Content-Encoding (Next's own compression then leaves the body alone).
    const setHeader = res.setHeader.bind(res);
    res.setHeader = (name, value) => setHeader(name.toLowerCase() === ENCODED_BODY_HEADER ? 'Content-Encoding' : name, value);
    const direct = dev || !settings.directRoutes ? undefined : matchDirectRoute(DIRECT_ROUTES, req.method, path);
    (direct ? answerDirectly(req, res, direct) : handle(req, res)).catch((error: unknown) => {
      // The framework itself failed: CONTRACT §7's body, the details only in the log, under the
      // request's id.
      log('request failed', { err: error, requestId }, 'error');
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify(errorBody(`Internal error (request id ${requestId})`)));
    });
  }));
  // What Node's parser rejects (an unknown method, headers past its limit) and CONNECT get the
  // error body too, rather than a bare status line or a dropped connection; after the answers
  // of the requests before it on the connection.
  // An idle keep-alive connection is closed by the client (or its proxy) first, not by us: when
  // the server closed one after Node's default 5 s, a client reusing it at that moment lost its
  // request (ECONNRESET; the soak saw dozens of reads fail so after bursts). 65 s outlasts the
  // usual clients' and balancers' idle timeouts (60 s); headers still have to come within it.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  server.on('clientError', answerClientError);
  server.on('connect', (_req, socket) => socket.end(clientErrorAnswer(Object.assign(new Error('CONNECT'), { code: 'HPE_INVALID_METHOD' }))));
  server.listen(settings.port, settings.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : settings.port;
    const origin = `http://${settings.host === '0.0.0.0' ? '127.0.0.1' : settings.host}:${port}`;
    void warmRoutes(origin).then(() => {
      // Stalls from here on held up requests (not the start's loading of code).
      watchEventLoop();
      log(`listening on ${origin} (workers ${stopWorkers ? 'on' : 'off'})`);
    });
  });

  onShutdownSignal(async () => {
    // Stop taking requests, let the ones in flight finish, then let running jobs finish.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    await closed;
    clearTimeout(force);
    if (stopWorkers) await stopWithin(stopWorkers, WORKERS_STOP_MS);
    await runtime.shutdown();
  }, { abandon: runtime.abandon });
}

/**
 * Next.js loads a route's code on its first request, ~0.4 s of this thread: the public routes are
 * asked once each (answers refused before any work: a missing shop, a wrong content type) before
 * the server says it listens, so no shop's first request waits for that.
 */
async function warmRoutes(origin: string): Promise<void> {
  const asks: [string, string, Record<string, string>][] = [
    ['GET', '/products', {}],
    ['GET', '/collection/1', {}],
    ['GET', '/init', {}],
    ['POST', '/import/products', { 'content-type': 'text/plain' }],
    ['POST', '/import/categories', { 'content-type': 'text/plain' }],
    ['POST', '/import/status', { 'content-type': 'text/plain' }],
  ];
  for (const [method, path, headers] of asks) {
    await new Promise<void>((resolve) => {
      const request = http.request(`${origin}${path}`, { method, headers: { ...headers, [WARM_UP_HEADER]: warmUpToken } }, (response) => response.resume().on('end', () => resolve()));
      request.on('error', () => resolve());
      request.end();
    });
  }
}

main().catch((error) => {
  log('failed to start', { err: error }, 'error');
  process.exit(1);
});
