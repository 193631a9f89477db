import { readJsonBody } from '@/lib/http/body';
import { createShop } from '@/lib/shops/manage-shops';
import { adminRoute } from '@/lib/staff/admin-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// POST /admin/api/shops – create a shop ({name, currency, listingExtendedDefault}); its secret is shown this once
export const POST = adminRoute(async (req, { ctx }) => Response.json(await createShop(ctx, (await readJsonBody(req, 16 * 1024)).json as never)));

// Any other method: 405 with the error body.
export const { GET, PUT, PATCH, DELETE } = otherMethods(['POST']);
