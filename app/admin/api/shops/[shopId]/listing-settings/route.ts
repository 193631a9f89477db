import { readJsonBody } from '@/lib/http/body';
import { respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';
import { listingSettings, saveListingSettings } from '@/lib/shops/listing-settings';
import { requireStaff } from '@/lib/staff/admin-auth';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ shopId: string }> };

// GET /admin/api/shops/:shopId/listing-settings – templates and the `extended` default
export function GET(req: Request, { params }: Params) {
  return respond(async () => {
    const { shopId } = await params;
    const ctx = appContext();
    await requireStaff(ctx, req, shopId);
    return Response.json(await listingSettings(ctx, shopId));
  });
}

// PUT /admin/api/shops/:shopId/listing-settings – save them (templates are checked first)
export function PUT(req: Request, { params }: Params) {
  return respond(async () => {
    const { shopId } = await params;
    const ctx = appContext();
    await requireStaff(ctx, req, shopId);
    return Response.json(await saveListingSettings(ctx, shopId, (await readJsonBody(req, 512 * 1024)).json));
  });
}
