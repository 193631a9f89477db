import { deleteCollection, updateCollection } from '@/lib/collections/manage-collections';
import { readJsonBody } from '@/lib/http/body';
import { AppError } from '@/lib/http/errors';
import { respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';
import { requireStaff } from '@/lib/staff/admin-auth';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ shopId: string; id: string }> };

async function target(req: Request, params: Params['params']) {
  const { shopId, id } = await params;
  const ctx = appContext();
  await requireStaff(ctx, req, shopId);
  if (!/^\d{1,10}$/.test(id)) throw new AppError('NOT_FOUND', 'Collection not found');
  return { ctx, shopId, id: Number(id) };
}

// PUT /admin/api/shops/:shopId/collections/:id – rename it or change its rules
export function PUT(req: Request, { params }: Params) {
  return respond(async () => {
    const { ctx, shopId, id } = await target(req, params);
    return Response.json(await updateCollection(ctx, shopId, id, (await readJsonBody(req, 512 * 1024)).json));
  });
}

// DELETE /admin/api/shops/:shopId/collections/:id
export function DELETE(req: Request, { params }: Params) {
  return respond(async () => {
    const { ctx, shopId, id } = await target(req, params);
    await deleteCollection(ctx, shopId, id);
    return Response.json({ status: 'success' });
  });
}
