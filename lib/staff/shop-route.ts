import { respond } from '@/lib/http/respond';
import { appContext, type AppContext } from '@/lib/runtime/context';
import { requireStaff } from './admin-auth';

export type ShopRoute<P> = { ctx: AppContext; shopId: string; params: P };

/**
 * A handler under /admin/api/shops/:shopId: the signed-in staff member must see the shop (another
 * shop answers 404, no session 401), and anything thrown becomes the spec's error body.
 */
export function shopRoute<P extends { shopId: string }>(handle: (req: Request, route: ShopRoute<P>) => Promise<Response>) {
  return (req: Request, { params }: { params: Promise<P> }) =>
    respond(async () => {
      const resolved = await params;
      const ctx = appContext();
      await requireStaff(ctx, req, resolved.shopId);
      return handle(req, { ctx, shopId: resolved.shopId, params: resolved });
    });
}
