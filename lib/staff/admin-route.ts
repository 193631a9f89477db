import { respond } from '@/lib/http/respond';
import { AppError } from '@/lib/http/errors';
import { appContext, type AppContext } from '@/lib/runtime/context';
import { requireStaff } from './admin-auth';
import type { StaffUser } from './users';

export type AdminRoute<P> = { ctx: AppContext; user: StaffUser; params: P };

/**
 * A handler of the admin API for admins only (shops, staff accounts, the outbox): no session
 * answers 401, a staff member limited to some shops 403; anything thrown becomes the error body.
 */
export function adminRoute<P = Record<string, never>>(handle: (req: Request, route: AdminRoute<P>) => Promise<Response>) {
  return (req: Request, context: { params: Promise<P> }) =>
    respond(async () => {
      const ctx = appContext();
      const user = await requireStaff(ctx, req);
      if (!user.isAdmin) throw new AppError('FORBIDDEN', 'Only admins may do this');
      return handle(req, { ctx, user, params: await context.params });
    });
}
