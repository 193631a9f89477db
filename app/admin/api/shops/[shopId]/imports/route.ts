import { listImports } from '@/lib/imports/import-records';
import { respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';
import { requireStaff } from '@/lib/staff/admin-auth';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/imports – the shop's imports, newest first
export function GET(req: Request, { params }: { params: Promise<{ shopId: string }> }) {
  return respond(async () => {
    const { shopId } = await params;
    const ctx = appContext();
    await requireStaff(ctx, req, shopId);
    const before = Number(new URL(req.url).searchParams.get('before')) || undefined;
    return Response.json({ imports: await listImports(ctx, shopId, { before, limit: 50 }) });
  });
}
