import { readJsonBody } from '@/lib/http/body';
import { shopSettings } from '@/lib/shops/shop-settings';
import { previewTemplate } from '@/lib/storefront/shop-templates';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// POST /admin/api/shops/:shopId/templates/preview – a draft rendered on the given products ({kind, source, products, products_total})
export const POST = shopRoute(async (req, { ctx, shopId }) => {
  const { name } = await shopSettings(ctx, shopId);
  return Response.json(previewTemplate(name, (await readJsonBody(req, 8 * 1024 * 1024)).json));
});

// Any other method: 405 with the error body.
export const { GET, PUT, PATCH, DELETE } = otherMethods(['POST']);
