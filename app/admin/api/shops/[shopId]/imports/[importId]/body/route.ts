import { importBody } from '@/lib/imports/import-details';
import { shopRoute } from '@/lib/staff/shop-route';
import { importIdOf } from '../import-id';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/imports/:importId/body – the request body as the shop sent it, as a download
export const GET = shopRoute<{ shopId: string; importId: string }>(async (_req, { ctx, shopId, params }) => {
  const id = importIdOf(params.importId);
  const body = await importBody(ctx, shopId, id);
  return new Response(new Uint8Array(body), {
    headers: { 'Content-Type': 'application/json', 'Content-Disposition': `attachment; filename="import-${id}.json"` },
  });
});

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
