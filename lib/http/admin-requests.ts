import crypto from 'node:crypto';
import type http from 'node:http';
import type { Refusal } from './malformed-request';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A request path (raw, percent-escapes and all) as the router will read it; null when it cannot be. */
function routedPath(rawPath: string): string | null {
  try {
    return decodeURIComponent(rawPath).replace(/\/{2,}/g, '/');
  } catch {
    return null;
  }
}

const under = (path: string | null, prefix: string) => path !== null && (path === prefix || path.startsWith(`${prefix}/`));

/** Whether a request goes to the admin app: its pages or its API. */
export function underAdmin(rawPath: string): boolean {
  return under(routedPath(rawPath), '/admin');
}

/** Whether a request goes to one of the admin app's pages (not its API). */
export function adminPage(rawPath: string): boolean {
  const path = routedPath(rawPath);
  return under(path, '/admin') && !under(path, '/admin/api');
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a state-changing request to the admin app (its API, its pages' server actions) that a
 * browser says comes from another origin: `Sec-Fetch-Site` other than same-origin, or an `Origin`
 * that is neither the request's own (its Host) nor PUBLIC_URL's. Clients that send neither (curl,
 * scripts) are no browser carrying a victim's cookie, and pass. Sites on other ports of the same
 * host are other origins: SameSite cookies do not tell them apart.
 */
export function refuseCrossSite(method: string, rawPath: string, headers: http.IncomingHttpHeaders, publicUrl: string | undefined): Refusal | undefined {
  if (SAFE_METHODS.has(method) || !underAdmin(rawPath)) return undefined;
  const refusal = { status: 403, message: 'Cross-site request refused: the admin app takes changes from its own pages only' };
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return refusal;
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const own = [headers.host ? originOf(`http://${headers.host}`) : undefined, headers.host ? originOf(`https://${headers.host}`) : undefined, publicUrl ? originOf(publicUrl) : undefined];
  return own.includes(originOf(origin)) && origin !== 'null' ? undefined : refusal;
}

/**
 * The Content-Security-Policy of an admin page: scripts only from the page's own nonce (Next.js
 * puts it on every script it writes, reading it from the request's policy) and what they load;
 * no inline script, no plugin, no framing, forms to itself. Styles may be inline (React writes
 * style attributes); images come from anywhere, since product pictures are the shops' own links.
 */
export function adminPagePolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    'img-src * data: blob:',
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws:' : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A fresh nonce for one page. */
export function pageNonce(): string {
  return crypto.randomBytes(18).toString('base64');
}
