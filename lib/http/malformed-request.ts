import type http from 'node:http';
import { errorBody } from './respond';

export type Refusal = { status: number; message: string; headers?: Record<string, string> };

/** The methods some route of the service takes (OPTIONS and HEAD are answered by the framework). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

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
  // HTTP/1.0 has no Host (the framework then takes the server's own); HTTP/1.1 requires it.
  if (!host && httpVersion !== '1.0') return { status: 400, message: 'Host header is required' };
  return undefined;
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
