/**
 * Where sign-in may send the browser back to: a path of the admin app, nothing else (no other
 * origin, no `//host`, no API answer). Anything else is the shops page.
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || value.length > 2000) return '/admin';
  if (!/^\/admin(?:[/?#]|$)/.test(value) || value.startsWith('/admin/api') || value.startsWith('/admin/login')) return '/admin';
  if (value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20)) return '/admin';
  return value;
}

/** The sign-in page's address that returns to `path` afterwards; `expired` says a session ended. */
export function signInPath(path: string | null | undefined, expired = false): string {
  const back = safeReturnPath(path);
  const query = new URLSearchParams();
  if (back !== '/admin') query.set('next', back);
  if (expired) query.set('expired', '1');
  return query.size ? `/admin/login?${query.toString().replaceAll('+', '%20')}` : '/admin/login';
}
