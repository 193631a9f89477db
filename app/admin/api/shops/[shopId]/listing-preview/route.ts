import { listProducts } from '@/lib/listing/listing';
import { paramsFromSearch } from '@/lib/listing/query';
import { requestOrigin } from '@/lib/listing/storefront-request';
import { jsonTextResponse, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';
import { requireStaff } from '@/lib/staff/admin-auth';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/listing-preview?<listing parameters> – the storefront's answer, for
// merchandisers: the shop and a preview session are filled in, products come in full.
export function GET(req: Request, { params }: { params: Promise<{ shopId: string }> }) {
  return respond(async () => {
    const { shopId } = await params;
    const ctx = appContext();
    await requireStaff(ctx, req, shopId);
    const query = paramsFromSearch(new URL(req.url).searchParams);
    query.set('shop_id', shopId);
    query.set('did', 'admin-preview');
    query.set('sid', 'admin-preview');
    query.set('extended', 'true');
    query.set('debug', 'true');
    query.delete('format');
    return jsonTextResponse(await listProducts(ctx, { params: query, headers: req.headers, origin: requestOrigin(req) }));
  });
}
