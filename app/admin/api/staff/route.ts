import { readJsonBody } from '@/lib/http/body';
import { adminRoute } from '@/lib/staff/admin-route';
import { createStaff, listStaff } from '@/lib/staff/manage-staff';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/staff – every staff account
export const GET = adminRoute(async (_req, { ctx }) => Response.json({ staff: await listStaff(ctx) }));

// POST /admin/api/staff – a new account ({email, password, is_admin, shops, technical_notices})
export const POST = adminRoute(async (req, { ctx }) => Response.json(await createStaff(ctx, (await readJsonBody(req, 256 * 1024)).json)));

// Any other method: 405 with the error body.
export const { PUT, PATCH, DELETE } = otherMethods(['GET', 'POST']);
