import { readJsonBody } from '@/lib/http/body';
import { shopRoute } from '@/lib/staff/shop-route';
import { AppError } from '@/lib/http/errors';
import { flagEmail, flagsCsvStream, pageEmailFlags, unflagEmail } from '@/lib/subscriptions/email-flags';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

const PAGE = 100;
const MAX_PAGE = 1000;

// GET /admin/api/shops/:shopId/flags[?limit=N&after=CURSOR&q=TEXT&flag=FLAG] – a page of the shop's flagged emails,
// most recently changed first, with the cursor of the next page; ?format=csv – all of them as CSV.
export const GET = shopRoute(async (req, { ctx, shopId }) => {
  const query = new URL(req.url).searchParams;
  if (query.get('format') === 'csv') {
    return new Response(flagsCsvStream(ctx, shopId), {
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="email-flags-${shopId}.csv"` },
    });
  }
  const given = query.get('limit');
  const limit = given === null ? PAGE : /^\d{1,4}$/.test(given) && Number(given) >= 1 ? Math.min(Number(given), MAX_PAGE) : NaN;
  if (Number.isNaN(limit)) throw new AppError('VALIDATION', `limit must be a whole number from 1 (at most ${MAX_PAGE} are given)`);
  return Response.json(await pageEmailFlags(ctx, shopId, { limit, after: query.get('after') || undefined, q: query.get('q') || undefined, flag: query.get('flag') || undefined }));
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

// Any other method: 405 with the error body.
export const { PUT, PATCH } = otherMethods(['GET', 'POST', 'DELETE']);
