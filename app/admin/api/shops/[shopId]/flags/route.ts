import { readJsonBody } from '@/lib/http/body';
import { shopRoute } from '@/lib/staff/shop-route';
import { flagEmail, flagsCsv, listEmailFlags, unflagEmail } from '@/lib/subscriptions/email-flags';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/flags[?format=csv] – the shop's flagged emails
export const GET = shopRoute(async (req, { ctx, shopId }) => {
  const rows = await listEmailFlags(ctx, shopId);
  if (new URL(req.url).searchParams.get('format') !== 'csv') return Response.json({ flags: rows });
  return new Response(flagsCsv(rows), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="email-flags-${shopId}.csv"` },
  });
});

// POST /admin/api/shops/:shopId/flags – add a flag ({email, event})
export const POST = shopRoute(async (req, { ctx, shopId }) => {
  await flagEmail(ctx, shopId, (await readJsonBody(req, 16 * 1024)).json);
  return Response.json({ status: 'success' });
});

// DELETE /admin/api/shops/:shopId/flags – remove a flag ({email, event})
export const DELETE = shopRoute(async (req, { ctx, shopId }) => {
  await unflagEmail(ctx, shopId, (await readJsonBody(req, 16 * 1024)).json);
  return Response.json({ status: 'success' });
});
