import { productDetail } from '@/lib/catalog/browse-products';
import { AppError } from '@/lib/http/errors';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/catalog/product?id=PRODUCT_ID – everything stored of one product
export const GET = shopRoute(async (req, { ctx, shopId }) => {
  const id = new URL(req.url).searchParams.get('id');
  if (!id) throw new AppError('VALIDATION', 'id is required');
  return Response.json(await productDetail(ctx, shopId, id));
});

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
