import { readJsonBody } from '@/lib/http/body';
import { AppError } from '@/lib/http/errors';
import { shopRoute } from '@/lib/staff/shop-route';
import { importFlags } from '@/lib/subscriptions/import-flags';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// POST /admin/api/shops/:shopId/flags/import – add flags from CSV ({csv, flag}: flag for lines without one)
export const POST = shopRoute(async (req, { ctx, shopId }) => {
  const body = ((await readJsonBody(req, 8 * 1024 * 1024)).json ?? {}) as { csv?: unknown; flag?: unknown };
  if (typeof body.csv !== 'string') throw new AppError('VALIDATION', 'csv is required');
  return Response.json(await importFlags(ctx, shopId, body.csv, typeof body.flag === 'string' && body.flag ? body.flag : undefined));
});

// Any other method: 405 with the error body.
export const { GET, PUT, PATCH, DELETE } = otherMethods(['POST']);
