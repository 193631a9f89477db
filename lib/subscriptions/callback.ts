import { assertNotLockedOut, clientAddress, countingRefusal } from '@/lib/http/auth-failures';
import { readJsonBody } from '@/lib/http/body';
import { consumeRateLimit } from '@/lib/http/rate-limit';
import type { AppContext } from '@/lib/runtime/context';
import { authenticateShop } from '@/lib/shops/authenticate';
import { flagEmail } from './email-flags';

/**
 * POST /subscriptions/callback (spec 4.8, CONTRACT §5): authenticates like an import (400
 * "Invalid secret key"), counts against the shop's write rate limit, then flags the email.
 */
export async function receiveEmailEvent(ctx: AppContext, req: Request): Promise<void> {
  const { limits } = ctx.settings;
  const address = clientAddress(req);
  if (limits.enabled) assertNotLockedOut(address, limits.authFailuresPerMinute);
  // Spec §8's request weight, as for every API request (none when limits are off).
  const { json } = await readJsonBody(req, limits.enabled ? limits.bodyBytes : Number.MAX_SAFE_INTEGER);
  const body = (typeof json === 'object' && json !== null && !Array.isArray(json) ? json : {}) as Record<string, unknown>;
  const shop = await countingRefusal(address, authenticateShop(ctx.sql, body.shop_id, body.shop_secret, 'Invalid secret key'));
  if (limits.enabled) await consumeRateLimit(ctx.sql, `writes:${shop.id}`, limits.writesPerMinute);
  await flagEmail(ctx, shop.id, { email: body.email, event: body.event });
}
