import crypto from 'node:crypto';
import { ZodError } from 'zod';
import { AppError, statusOf } from './errors';
import { acceptsGzip, gzipOffThread } from './gzip';
import { describeZodError } from './zod-message';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, noteDatabaseDown } from '@/lib/runtime/database-health';
import { describeError, log } from '@/lib/runtime/log';
import { currentRequest, noteRequestError } from '@/lib/runtime/request-context';

export function errorBody(message: string) {
  return { status: 'error', payload: { message } };
}

export function errorResponse(error: unknown): Response {
  if (error instanceof ZodError) error = new AppError('VALIDATION', describeZodError(error));
  if (error instanceof AppError) {
    noteRequestError(error.message);
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
    // The rest of an oversized body was never read: the connection cannot carry another request.
    if (error.code === 'PAYLOAD_TOO_LARGE') headers.Connection = 'close';
    return Response.json(errorBody(error.message), { status: statusOf[error.code], headers });
  }
  if (isDatabaseUnavailable(error)) {
    // CONTRACT §9: nothing accepted is lost; the client tries again.
    noteDatabaseDown(describeError(error));
    noteRequestError('The database is unavailable');
    return Response.json(errorBody('The database is unavailable; retry shortly'), { status: 503, headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) } });
  }
  // The id the answer's X-Request-Id carries (bin/start.ts), so a client's report finds the line.
  const requestId = currentRequest()?.requestId ?? crypto.randomUUID();
  log('unexpected error', { err: error, requestId }, 'error');
  noteRequestError('Internal error');
  return Response.json(errorBody(`Internal error (request id ${requestId})`), { status: 500 });
}

/**
 * The handlers of a path under a public endpoint's prefix that is no endpoint (`/collection/1/x`):
 * 404 with the error body, where Next.js would render its HTML page (CONTRACT §7).
 */
export function noEndpoint(): Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', (req: Request) => Response> {
  const handler = (req: Request) => Response.json(errorBody(`No endpoint at ${new URL(req.url).pathname}`), { status: 404 });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}

/**
 * The handler for each method a public route does not take: 405 with the error body (CONTRACT §7:
 * every error body is `{status, payload}`, where Next.js would answer an empty 405) and `Allow`.
 */
export function methodNotAllowed(allowed: readonly string[]): () => Response {
  const list = allowed.join(', ');
  return () => Response.json(errorBody(`This endpoint takes ${list}`), { status: 405, headers: { Allow: list } });
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The 405 handlers of a route for every method but `allowed` (see methodNotAllowed), for
 * `export const { GET, PUT, PATCH } = otherMethods(['POST', 'DELETE'])`.
 */
export function otherMethods(allowed: readonly (typeof METHODS)[number][]): Record<(typeof METHODS)[number], () => Response> {
  const handler = methodNotAllowed(allowed);
  return Object.fromEntries(METHODS.map((method) => [method, handler])) as Record<(typeof METHODS)[number], () => Response>;
}

/**
 * A 200 whose JSON body is these UTF-8 chunks joined, gzipped (off the serving thread: gzip.ts)
 * when the request's Accept-Encoding takes it; the route says so under ENCODED_BODY_HEADER. The
 * body goes to the framework as one chunk: each chunk of a web stream costs the serving thread a
 * round of promises on its way to the socket, more than copying ~100 KB once.
 */
export function jsonChunksResponse(chunks: Uint8Array[], acceptEncoding: string | null): Response {
  const joined = Buffer.concat(chunks);
  const headers: Record<string, string> = { 'content-type': 'application/json', vary: 'Accept-Encoding' };
  if (joined.byteLength < GZIP_FROM || !acceptsGzip(acceptEncoding)) return new Response(joined, { headers });
  headers[ENCODED_BODY_HEADER] = 'gzip';
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(await gzipOffThread(joined));
      controller.close();
    },
  });
  return new Response(body, { headers });
}

/** The body's Content-Encoding, under a name the framework passes on (bin/start.ts sends it as Content-Encoding). */
export const ENCODED_BODY_HEADER = 'x-vitrine-content-encoding';

/** Smaller answers go as they are (the framework's compression has the same threshold). */
export const GZIP_FROM = 1024;

/** Runs a handler body and maps anything it throws to the spec's error body, in one place. */
export async function respond(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    return errorResponse(error);
  }
}
