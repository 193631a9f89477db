import { previewRules } from '@/lib/collections/collection-previews';
import { readJsonBody } from '@/lib/http/body';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// POST /admin/api/shops/:shopId/collections/preview – what draft rules show ({rules, location, page}), with warnings
export const POST = shopRoute(async (req, { ctx, shopId }) => Response.json(await previewRules(ctx, shopId, (await readJsonBody(req, 512 * 1024)).json)));

// Any other method: 405 with the error body.
export const { GET, PUT, PATCH, DELETE } = otherMethods(['POST']);
