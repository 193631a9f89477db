import { paramUnits } from '@/lib/catalog/browse-products';
import { shopRoute } from '@/lib/staff/shop-route';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/catalog/units – the unit each param is sent with ({name: unit})
export const GET = shopRoute(async (_req, { ctx, shopId }) => Response.json({ units: await paramUnits(ctx, shopId) }));
