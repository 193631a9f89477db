import { rotateShopSecret } from '@/lib/shops/manage-shops';
import { adminRoute } from '@/lib/staff/admin-route';
import { plausibleShopId } from '@/lib/staff/users';
import { AppError } from '@/lib/http/errors';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// POST /admin/api/shops/:shopId/secret – a new secret (the old one stops working), shown this once
export const POST = adminRoute<{ shopId: string }>(async (_req, { ctx, params }) => {
  if (!plausibleShopId(params.shopId)) throw new AppError('NOT_FOUND', `Shop ${params.shopId} not found`);
  return Response.json(await rotateShopSecret(ctx, params.shopId));
});

// Any other method: 405 with the error body.
export const { GET, PUT, PATCH, DELETE } = otherMethods(['POST']);
