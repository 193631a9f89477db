import { importDetail } from '@/lib/imports/import-details';
import { shopRoute } from '@/lib/staff/shop-route';
import { importIdOf } from './import-id';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/imports/:importId – one import: counts, timings, webhook, emails, progress
export const GET = shopRoute<{ shopId: string; importId: string }>(async (_req, { ctx, shopId, params }) =>
  Response.json(await importDetail(ctx, shopId, importIdOf(params.importId))),
);

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
