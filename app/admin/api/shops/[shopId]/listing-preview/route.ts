import { jsonChunksResponse, otherMethods } from '@/lib/http/respond';
import { listProducts } from '@/lib/listing/listing';
import { paramsFromSearch } from '@/lib/listing/query';
import { requestOrigin } from '@/lib/listing/storefront-request';
import { shopRoute } from '@/lib/staff/shop-route';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/listing-preview?<listing parameters> – the storefront's answer, for
// merchandisers: the shop and a preview session are filled in, products come in full; the time
// the listing took is in X-Engine-Ms.
export const GET = shopRoute(async (req, { ctx, shopId }) => {
  const query = paramsFromSearch(new URL(req.url).searchParams);
  query.set('shop_id', shopId);
  query.set('did', 'admin-preview');
  query.set('sid', 'admin-preview');
  query.set('extended', 'true');
  query.set('debug', 'true');
  query.delete('format');
  const started = performance.now();
  const chunks = await listProducts(ctx, { params: query, headers: req.headers, origin: requestOrigin(req) });
  const response = jsonChunksResponse(chunks, req.headers.get('accept-encoding'));
  response.headers.set('X-Engine-Ms', (performance.now() - started).toFixed(1));
  return response;
});

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
