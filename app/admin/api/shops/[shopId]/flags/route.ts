import { readJsonBody } from '@/lib/http/body';
import { respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';
import { requireStaff } from '@/lib/staff/admin-auth';
import { flagEmail, flagsCsv, listEmailFlags, unflagEmail } from '@/lib/subscriptions/email-flags';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ shopId: string }> };

// GET /admin/api/shops/:shopId/flags[?format=csv] – the shop's flagged emails
export function GET(req: Request, { params }: Params) {
  return respond(async () => {
    const { shopId } = await params;
    const ctx = appContext();
    await requireStaff(ctx, req, shopId);
    const rows = await listEmailFlags(ctx, shopId);
    if (new URL(req.url).searchParams.get('format') !== 'csv') return Response.json({ flags: rows });
    return new Response(flagsCsv(rows), {
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="email-flags-${shopId}.csv"` },
    });
  });
}

// POST /admin/api/shops/:shopId/flags – add a flag ({email, event})
export function POST(req: Request, { params }: Params) {
  return respond(async () => {
    const { shopId } = await params;
    const ctx = appContext();
    await requireStaff(ctx, req, shopId);
    await flagEmail(ctx, shopId, (await readJsonBody(req, 16 * 1024)).json);
    return Response.json({ status: 'success' });
  });
}

// DELETE /admin/api/shops/:shopId/flags – remove a flag ({email, event})
export function DELETE(req: Request, { params }: Params) {
  return respond(async () => {
    const { shopId } = await params;
    const ctx = appContext();
    await requireStaff(ctx, req, shopId);
    await unflagEmail(ctx, shopId, (await readJsonBody(req, 16 * 1024)).json);
    return Response.json({ status: 'success' });
  });
}
