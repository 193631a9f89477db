import { clientAddress } from '@/lib/http/auth-failures';
import { readJsonBody } from '@/lib/http/body';
import { guardRead } from '@/lib/http/read-guard';
import type { AppContext } from '@/lib/runtime/context';
import { paramsFromBody, paramsFromSearch } from './query';

/** A storefront read's parameters, from the query string (GET) or a JSON body (POST), after the read guard. */
export async function storefrontParams(ctx: AppContext, req: Request): Promise<Map<string, string>> {
  if (ctx.settings.limits.enabled) guardRead(clientAddress(req), ctx.settings.limits.readsPerMinute);
  const url = new URL(req.url);
  if (req.method === 'GET' || req.method === 'HEAD') return paramsFromSearch(url.searchParams);
  const body = await readJsonBody(req, ctx.settings.limits.bodyBytes);
  const params = paramsFromBody(body.json);
  // Query parameters fill in what the body does not say (shop_id in the URL, say).
  for (const [key, value] of paramsFromSearch(url.searchParams)) if (!params.has(key)) params.set(key, value);
  return params;
}

export function requestOrigin(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get('host');
  return host ? `${url.protocol}//${host}` : url.origin;
}
