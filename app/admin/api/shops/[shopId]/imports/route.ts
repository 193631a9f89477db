import { pageImports } from '@/lib/imports/browse-imports';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/imports[?status&operation&from&to&before|after] – a page of the shop's imports, newest first
export const GET = shopRoute(async (req, { ctx, shopId }) => {
  const query = Object.fromEntries([...new URL(req.url).searchParams].filter(([, value]) => value !== ''));
  return Response.json(await pageImports(ctx, shopId, query));
});

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
