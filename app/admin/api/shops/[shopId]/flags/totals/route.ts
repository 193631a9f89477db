import { flagTotals } from '@/lib/subscriptions/flag-totals';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/flags/totals – flagged emails, and how many carry each flag
export const GET = shopRoute(async (_req, { ctx, shopId }) => Response.json(await flagTotals(ctx, shopId)));

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
