'use client';

/** An admin API answer that was an error: its message is the server's own sentence. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Every admin API call goes through here, so an expired session is handled one way everywhere:
 * the browser goes to sign in and comes back to this page.
 */
export async function api<T>(url: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (response.status === 401) {
    const here = window.location.pathname + window.location.search;
    window.location.assign(`/admin/login?next=${encodeURIComponent(here)}&expired=1`);
    throw new ApiError('Your session has ended: sign in again', 401);
  }
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(json?.payload?.message ?? `The server answered HTTP ${response.status}`, response.status);
  return json as T;
}
