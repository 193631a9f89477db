import type http from 'node:http';
import { Readable } from 'node:stream';
import { ENCODED_BODY_HEADER, errorBody, GZIP_FROM } from './respond';
import { acceptsGzip, gzipOffThread } from './gzip';

/**
 * The storefront's hottest reads (listings and collections) are answered by calling their route
 * handlers here, as Next.js would, without Next.js's handling of the request around them: its
 * routing, its request and response objects and its web-stream plumbing took ~1 ms of the serving
 * thread per listing, a third of the whole (docs/benchmarks.md, session 44). The handler is the
 * very function the route exports, so the route file stays the one definition of the endpoint;
 * every other path and method goes through Next.js.
 */

/**
 * A route answered directly: its method, its path (`:name` for one dynamic segment) and its
 * handler, called as Next.js calls it, with a Request and the path's dynamic segments. (A method's
 * signature, so a handler that names its segments, `{ params: Promise<{ id: string }> }`, fits.)
 */
export type DirectRoute = {
  method: 'GET' | 'POST';
  path: string;
  handler(req: Request, context: { params: Promise<Record<string, string>> }): Response | Promise<Response>;
};

type RouteHandler = DirectRoute['handler'];

type Matched = { handler: RouteHandler; params: Record<string, string> };

/** The route a request is for, with its segments decoded, or undefined (Next.js answers it). */
export function matchDirectRoute(routes: readonly DirectRoute[], method: string | undefined, path: string): Matched | undefined {
  const sent = path.split('/');
  for (const route of routes) {
    if (route.method !== method) continue;
    const wanted = route.path.split('/');
    if (wanted.length !== sent.length) continue;
    const params: Record<string, string> = {};
    let matches = true;
    for (let i = 0; i < wanted.length && matches; i++) {
      if (!wanted[i].startsWith(':')) matches = wanted[i] === sent[i];
      else if (sent[i] === '') matches = false;
      // Escapes were checked before (refuseMalformedRequest): this cannot throw.
      else params[wanted[i].slice(1)] = decodeURIComponent(sent[i]);
    }
    if (matches) return { handler: route.handler, params };
  }
  return undefined;
}

/**
 * Answers a request with a route handler: the Request it is given is made from the node request
 * (URL from its Host, headers, a POST's body as a stream), and its Response is written back whole,
 * with a Content-Length, gzipped when the client takes gzip and the route did not encode it.
 */
export async function answerDirectly(req: http.IncomingMessage, res: http.ServerResponse, { handler, params }: Matched): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else headers.set(name, value);
  }
  const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url}`;
  if (!URL.canParse(url)) {
    const message = JSON.stringify(errorBody('Host header is not a host name'));
    res.writeHead(400, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(message)) }).end(message);
    return;
  }
  const hasBody = req.method === 'POST';
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: hasBody ? 'half' : undefined,
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(params) });
  let body: Buffer = Buffer.from(await response.arrayBuffer());
  const out: Record<string, string> = {};
  let encoded = false;
  response.headers.forEach((value, name) => {
    if (name === ENCODED_BODY_HEADER) {
      out['content-encoding'] = value;
      encoded = true;
    } else out[name] = value;
  });
  if (!encoded && body.byteLength >= GZIP_FROM && acceptsGzip(req.headers['accept-encoding'] ?? null)) {
    body = await gzipOffThread(body);
    out['content-encoding'] = 'gzip';
  }
  if (!out.vary) out.vary = 'Accept-Encoding';
  out['content-length'] = String(body.byteLength);
  res.writeHead(response.status, out).end(body);
}
