import { shopTrees } from '@/lib/catalog/browse-trees';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/catalog/trees – category and location trees with product counts
export const GET = shopRoute(async (_req, { ctx, shopId }) => Response.json(await shopTrees(ctx, shopId)));

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
