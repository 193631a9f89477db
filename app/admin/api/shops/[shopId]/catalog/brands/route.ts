import { shopBrands } from '@/lib/catalog/browse-products';
import { shopRoute } from '@/lib/staff/shop-route';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/catalog/brands – the shop's brands, most products first
export const GET = shopRoute(async (_req, { ctx, shopId }) => Response.json({ brands: await shopBrands(ctx, shopId) }));
