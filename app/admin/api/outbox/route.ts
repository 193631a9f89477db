import { pageOutbox } from '@/lib/mail/browse-outbox';
import { adminRoute } from '@/lib/staff/admin-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/outbox[?before=ID] – the emails the service composed, newest first
export const GET = adminRoute(async (req, { ctx }) => Response.json(await pageOutbox(ctx, { before: new URL(req.url).searchParams.get('before') })));

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
