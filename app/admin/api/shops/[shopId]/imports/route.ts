import { listImports } from '@/lib/imports/import-records';
import { shopRoute } from '@/lib/staff/shop-route';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/imports – the shop's imports, newest first
export const GET = shopRoute(async (req, { ctx, shopId }) => {
  const before = Number(new URL(req.url).searchParams.get('before')) || undefined;
  return Response.json({ imports: await listImports(ctx, shopId, { before, limit: 50 }) });
});
