import crypto from 'node:crypto';
import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { storefrontShop } from '@/lib/shops/storefront-shop';

/** `GET /init`: keeps a `did` that was sent, issues one that was not, and a fresh session id. */
export async function initSession(ctx: AppContext, params: Map<string, string>) {
  const shopId = params.get('shop_id')?.trim();
  if (!shopId) throw new AppError('VALIDATION', 'shop_id is required');
  await storefrontShop(ctx.sql, shopId);
  const did = params.get('did')?.trim() || crypto.randomUUID();
  const sid = crypto.randomBytes(12).toString('base64url');
  return { did, seance: sid, sid };
}
