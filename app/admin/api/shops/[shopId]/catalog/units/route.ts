import { paramUnits } from '@/lib/catalog/browse-products';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/catalog/units – the unit each param is sent with ({name: unit})
export const GET = shopRoute(async (_req, { ctx, shopId }) => Response.json({ units: await paramUnits(ctx, shopId) }));

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
