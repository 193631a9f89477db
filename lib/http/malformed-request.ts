import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './respond';

export type Refusal = { status: number; message: string; headers?: Record<string, string> };

/** The methods some route of the service takes (OPTIONS and HEAD are answered by the framework). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const PAGE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** No route's path comes near this; longer ones are refused before any routing (414). */
export const MAX_PATH_BYTES = 2048;

/** Whether every segment of a request path decodes to well-formed text (no bad escape, no invalid UTF-8). */
function decodablePath(path: string): boolean {
  for (const segment of path.split('/')) {
    // Raw bytes above ASCII arrive as latin1 characters: no path of ours holds one.
    if (!/^[\x21-\x7e]*$/.test(segment)) return false;
    if (!segment.includes('%')) continue;
    try {
      if (!decodeURIComponent(segment).isWellFormed()) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** A `.` or `..` segment, spelled out or escaped (`%2e%2E`): clients resolve them before sending (RFC 3986 5.2.4). */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;

/**
 * What the service answers before routing a request the framework would otherwise answer with a
 * 500 or an empty page (CONTRACT §7): a method no route takes, a path too long or that cannot be
 * decoded, no Host (HTTP/1.1). Undefined: the request goes on to its route.
 */
export function refuseMalformedRequest(method: string | undefined, url: string | undefined, host: string | undefined, httpVersion = '1.1'): Refusal | undefined {
  if (!method || !KNOWN_METHODS.has(method)) return { status: 405, message: `Method ${method ?? ''} is not supported` };
  const target = url ?? '';
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  if (!path.startsWith('/')) return { status: 400, message: 'The request target must be a path' };
  if (path.length > MAX_PATH_BYTES) return { status: 414, message: `Path too long (at most ${MAX_PATH_BYTES} characters)` };
  if (!decodablePath(path)) return { status: 400, message: 'Path cannot be decoded (a bad percent-escape or invalid UTF-8)' };
  // The framework would answer a 308 to the resolved path, repeating the whole query twice (in
  // Location and Refresh): past the client's header limit for a long one. No path of ours has one.
  if (DOT_SEGMENT.test(path)) return { status: 400, message: 'Path must not contain . or .. segments' };
  // The root is a page that leads to the admin app: the framework answers other methods with an empty 405.
  if (/^\/+$/.test(path) && !PAGE_METHODS.has(method)) return { status: 405, message: 'The root takes GET (it leads to /admin)', headers: { Allow: 'GET, HEAD' } };
  // HTTP/1.0 has no Host (the framework then takes the server's own); HTTP/1.1 requires it.
  if (!host && httpVersion !== '1.0') return { status: 400, message: 'Host header is required' };
  return undefined;
}

/**
 * The request target with its path's empty segments dropped (`/products/`, `//products`), when it
 * has any; undefined otherwise. Such a path is served as the path without them, as Node servers
 * commonly route it, where the framework answered a 308 repeating the whole query twice (Location
 * and Refresh), so a long query made an answer the client could not read. Admin pages keep that
 * redirect: a browser's address bar should show the page's own path.
 */
export function withoutEmptySegments(url: string): string | undefined {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.includes('//') && !(path.length > 1 && path.endsWith('/'))) return undefined;
  const collapsed = path.replace(/\/{2,}/g, '/');
  const trimmed = collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
  return trimmed + (query === -1 ? '' : url.slice(query));
}

/** Writes a refusal as the spec's error body; the connection closes after it when `close`. */
export function sendRefusal(res: http.ServerResponse, refusal: Refusal, close = false): void {
  const body = JSON.stringify(errorBody(refusal.message));
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...refusal.headers };
  if (close) headers.Connection = 'close';
  res.writeHead(refusal.status, headers).end(body);
}

/**
 * The answer to a request Node's HTTP parser rejected (its 'clientError'), as its default handler
 * would give it but with the error body.
 */
export function clientErrorAnswer(error: NodeJS.ErrnoException): string {
  const refusal: Refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? { status: 431, message: 'Request headers too large' }
      : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? { status: 413, message: 'Chunk extensions too large' }
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? { status: 408, message: 'Request timed out' }
          : error.code === 'HPE_INVALID_METHOD'
            ? { status: 405, message: 'Method is not supported' }
            : { status: 400, message: `Malformed HTTP request (${error.code ?? 'parse error'})` };
  const body = JSON.stringify(errorBody(refusal.message));
  const reason = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' }[refusal.status];
  return `HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** Per connection: its answers still being written, and what waits for them. */
type Connection = { open: number; refused: boolean; whenDone?: () => void };
const connections = new WeakMap<Duplex, Connection>();

function connectionOf(socket: Duplex): Connection {
  let connection = connections.get(socket);
  if (!connection) connections.set(socket, (connection = { open: 0, refused: false }));
  return connection;
}

/** Counts a request's answer as open on its connection until it is written (or the connection is lost). */
export function trackAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const connection = connectionOf(req.socket);
  connection.open++;
  let done = false;
  const finished = () => {
    if (done) return;
    done = true;
    if (--connection.open === 0) connection.whenDone?.();
  };
  res.once('finish', finished);
  res.once('close', finished);
}

/**
 * The server's 'clientError': what Node's parser rejected gets its answer with the error body,
 * then the connection closes. Answers are in order (HTTP/1.1): when the bytes it could not parse
 * follow a request still being answered on the same connection (a client that sent a GET's body
 * without Content-Length, or pipelined garbage), that request's answer is written first. Node's
 * own handler, and writing at once, cut it off: the client met a reset or another request's error.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A client that half-closed in the middle of a body (HPE_INVALID_EOF_STATE) left: the request
  // it was sending never completes, so an answer waiting for it would wait for good.
  if (error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE' || !socket.writable) {
    socket.destroy();
    return;
  }
  const connection = connectionOf(socket);
  // The parser reports its error again for each later chunk of the connection's bytes.
  if (connection.refused) return;
  connection.refused = true;
  const answer = () => {
    if (socket.writable) socket.end(clientErrorAnswer(error));
    else socket.destroy();
  };
  if (connection.open === 0) answer();
  else connection.whenDone = answer;
}
