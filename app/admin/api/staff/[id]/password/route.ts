import { readJsonBody } from '@/lib/http/body';
import { adminRoute } from '@/lib/staff/admin-route';
import { resetStaffPassword, staffIdOf } from '@/lib/staff/manage-staff';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// PUT /admin/api/staff/:id/password – set a new password ({password}); the account's sessions end
export const PUT = adminRoute<{ id: string }>(async (req, { ctx, params }) => {
  await resetStaffPassword(ctx, staffIdOf(params.id), (await readJsonBody(req, 16 * 1024)).json);
  return Response.json({ status: 'success' });
});

// Any other method: 405 with the error body.
export const { GET, POST, PATCH, DELETE } = otherMethods(['PUT']);
