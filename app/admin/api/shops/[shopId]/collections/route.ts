import { collectionSummaries } from '@/lib/collections/collection-previews';
import { createCollection } from '@/lib/collections/manage-collections';
import { readJsonBody } from '@/lib/http/body';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/collections – the shop's collections with how many products each shows
export const GET = shopRoute(async (_req, { ctx, shopId }) => Response.json({ collections: await collectionSummaries(ctx, shopId) }));

// POST /admin/api/shops/:shopId/collections – create one ({name, rules})
export const POST = shopRoute(async (req, { ctx, shopId }) => Response.json(await createCollection(ctx, shopId, (await readJsonBody(req, 512 * 1024)).json)));

// Any other method: 405 with the error body.
export const { PUT, PATCH, DELETE } = otherMethods(['GET', 'POST']);
