import { deleteCollection, getCollection, updateCollection } from '@/lib/collections/manage-collections';
import { readJsonBody } from '@/lib/http/body';
import { AppError } from '@/lib/http/errors';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

function collectionId(id: string): number {
  // Collection ids are PostgreSQL integers: anything else names no collection.
  if (!/^\d{1,10}$/.test(id) || Number(id) > 2_147_483_647) throw new AppError('NOT_FOUND', 'Collection not found');
  return Number(id);
}

// GET /admin/api/shops/:shopId/collections/:id – its name and rules
export const GET = shopRoute<{ shopId: string; id: string }>(async (_req, { ctx, shopId, params }) => Response.json(await getCollection(ctx, shopId, collectionId(params.id))));

// PUT /admin/api/shops/:shopId/collections/:id – rename it or change its rules
export const PUT = shopRoute<{ shopId: string; id: string }>(async (req, { ctx, shopId, params }) =>
  Response.json(await updateCollection(ctx, shopId, collectionId(params.id), (await readJsonBody(req, 512 * 1024)).json)),
);

// DELETE /admin/api/shops/:shopId/collections/:id
export const DELETE = shopRoute<{ shopId: string; id: string }>(async (_req, { ctx, shopId, params }) => {
  await deleteCollection(ctx, shopId, collectionId(params.id));
  return Response.json({ status: 'success' });
});

// Any other method: 405 with the error body.
export const { POST, PATCH } = otherMethods(['GET', 'PUT', 'DELETE']);
