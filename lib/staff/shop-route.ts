import { respond } from '@/lib/http/respond';
import { appContext, type AppContext } from '@/lib/runtime/context';
import { AppError } from '@/lib/http/errors';
import { requireStaff } from './admin-auth';
import { plausibleShopId, type StaffUser } from './users';

async function shopExists(ctx: AppContext, shopId: string): Promise<boolean> {
  if (!plausibleShopId(shopId)) return false;
  return (await ctx.sql`select 1 from shops where id = ${shopId}`).length > 0;
}

export type ShopRoute<P> = { ctx: AppContext; shopId: string; params: P; user: StaffUser };

/**
 * A handler under /admin/api/shops/:shopId: the signed-in staff member must see the shop (another
 * shop answers 404, no session 401), and anything thrown becomes the spec's error body.
 */
export function shopRoute<P extends { shopId: string }>(handle: (req: Request, route: ShopRoute<P>) => Promise<Response>) {
  return (req: Request, { params }: { params: Promise<P> }) =>
    respond(async () => {
      const resolved = await params;
      const ctx = appContext();
      const user = await requireStaff(ctx, req, resolved.shopId);
      // An admin may see every shop: one that does not exist answers alike on every route.
      if (!(await shopExists(ctx, resolved.shopId))) throw new AppError('NOT_FOUND', `Shop ${resolved.shopId} not found`);
      return handle(req, { ctx, shopId: resolved.shopId, params: resolved, user });
    });
}
