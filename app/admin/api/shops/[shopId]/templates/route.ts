import { readJsonBody } from '@/lib/http/body';
import { saveTemplate, shopTemplates } from '@/lib/storefront/shop-templates';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/templates – the listing and collection templates with their versions
export const GET = shopRoute(async (_req, { ctx, shopId }) => Response.json(await shopTemplates(ctx, shopId)));

// PUT /admin/api/shops/:shopId/templates – save one ({kind, source}; null or blank: the built-in one)
export const PUT = shopRoute(async (req, { ctx, shopId, user }) => Response.json(await saveTemplate(ctx, shopId, user.email, (await readJsonBody(req, 512 * 1024)).json)));

// Any other method: 405 with the error body.
export const { POST, PATCH, DELETE } = otherMethods(['GET', 'PUT']);
