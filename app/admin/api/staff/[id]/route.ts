import { readJsonBody } from '@/lib/http/body';
import { adminRoute } from '@/lib/staff/admin-route';
import { removeStaff, staffIdOf, updateStaffAccess } from '@/lib/staff/manage-staff';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// PUT /admin/api/staff/:id – what the account sees ({is_admin, shops, technical_notices})
export const PUT = adminRoute<{ id: string }>(async (req, { ctx, user, params }) => {
  await updateStaffAccess(ctx, user, staffIdOf(params.id), (await readJsonBody(req, 256 * 1024)).json);
  return Response.json({ status: 'success' });
});

// DELETE /admin/api/staff/:id – remove the account
export const DELETE = adminRoute<{ id: string }>(async (_req, { ctx, user, params }) => {
  await removeStaff(ctx, user, staffIdOf(params.id));
  return Response.json({ status: 'success' });
});

// Any other method: 405 with the error body.
export const { GET, POST, PATCH } = otherMethods(['PUT', 'DELETE']);
