import { pageProducts } from '@/lib/catalog/browse-products';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/catalog/products[?q&category&brand&availability&page] – 50 a page, by id
export const GET = shopRoute(async (req, { ctx, shopId }) => Response.json(await pageProducts(ctx, shopId, Object.fromEntries(new URL(req.url).searchParams))));

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
