import { readJsonBody } from '@/lib/http/body';
import { restoreTemplate } from '@/lib/storefront/shop-templates';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// POST /admin/api/shops/:shopId/templates/restore – make a version current again ({kind, version})
export const POST = shopRoute(async (req, { ctx, shopId, user }) => Response.json(await restoreTemplate(ctx, shopId, user.email, (await readJsonBody(req, 16 * 1024)).json)));

// Any other method: 405 with the error body.
export const { GET, PUT, PATCH, DELETE } = otherMethods(['POST']);
