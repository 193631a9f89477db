import { readJsonBody } from '@/lib/http/body';
import { shopSettings, updateShopSettings } from '@/lib/shops/shop-settings';
import { adminRoute } from '@/lib/staff/admin-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/settings – name, currency, the `extended` default
export const GET = adminRoute<{ shopId: string }>(async (_req, { ctx, params }) => Response.json(await shopSettings(ctx, params.shopId)));

// PUT /admin/api/shops/:shopId/settings – change them
export const PUT = adminRoute<{ shopId: string }>(async (req, { ctx, params }) => Response.json(await updateShopSettings(ctx, params.shopId, (await readJsonBody(req, 16 * 1024)).json)));

// Any other method: 405 with the error body.
export const { POST, PATCH, DELETE } = otherMethods(['GET', 'PUT']);
