import { shopBrands } from '@/lib/catalog/browse-products';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/catalog/brands – the shop's brands, most products first
export const GET = shopRoute(async (_req, { ctx, shopId }) => Response.json({ brands: await shopBrands(ctx, shopId) }));

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
