import { readJsonBody } from '@/lib/http/body';
import { listingSettings, saveListingSettings } from '@/lib/shops/listing-settings';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/listing-settings – templates and the `extended` default
export const GET = shopRoute(async (_req, { ctx, shopId }) => Response.json(await listingSettings(ctx, shopId)));

// PUT /admin/api/shops/:shopId/listing-settings – save them (templates are checked first)
export const PUT = shopRoute(async (req, { ctx, shopId }) => Response.json(await saveListingSettings(ctx, shopId, (await readJsonBody(req, 512 * 1024)).json)));

// Any other method: 405 with the error body.
export const { POST, PATCH, DELETE } = otherMethods(['GET', 'PUT']);
