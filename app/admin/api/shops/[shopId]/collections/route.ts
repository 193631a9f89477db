import { createCollection, listCollections } from '@/lib/collections/manage-collections';
import { readJsonBody } from '@/lib/http/body';
import { respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';
import { requireStaff } from '@/lib/staff/admin-auth';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ shopId: string }> };

// GET /admin/api/shops/:shopId/collections – the shop's collections
export function GET(req: Request, { params }: Params) {
  return respond(async () => {
    const { shopId } = await params;
    const ctx = appContext();
    await requireStaff(ctx, req, shopId);
    return Response.json({ collections: await listCollections(ctx, shopId) });
  });
}

// POST /admin/api/shops/:shopId/collections – create one ({name, rules})
export function POST(req: Request, { params }: Params) {
  return respond(async () => {
    const { shopId } = await params;
    const ctx = appContext();
    await requireStaff(ctx, req, shopId);
    return Response.json(await createCollection(ctx, shopId, (await readJsonBody(req, 512 * 1024)).json));
  });
}
