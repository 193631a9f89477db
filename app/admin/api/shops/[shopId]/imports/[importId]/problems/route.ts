import { importProblems } from '@/lib/imports/import-details';
import { shopRoute } from '@/lib/staff/shop-route';
import { importIdOf } from '../import-id';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/imports/:importId/problems?kind=errors|warnings[&q&page] – 100 a page
export const GET = shopRoute<{ shopId: string; importId: string }>(async (req, { ctx, shopId, params }) =>
  Response.json(await importProblems(ctx, shopId, importIdOf(params.importId), Object.fromEntries(new URL(req.url).searchParams))),
);

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
