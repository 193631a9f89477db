import { headers } from 'next/headers';
import { forbidden, notFound, redirect } from 'next/navigation';
import { appContext } from '@/lib/runtime/context';
import { overHttps, sessionTokenFrom } from './admin-auth';
import { listShops } from '@/lib/shops/manage-shops';
import { signInPath } from './return-path';
import { sessionUser } from './sessions';
import { canSeeShop, plausibleShopId, type StaffUser } from './users';

/**
 * For admin pages: the signed-in staff member; without a session (none, expired or ended), a
 * redirect to sign in and back to this page (proxy.ts tells the path).
 */
export async function staffForPage(): Promise<StaffUser> {
  const ctx = appContext();
  const given = await headers();
  const token = sessionTokenFrom(given.get('cookie'), overHttps(given, undefined, ctx.settings.publicUrl));
  const user = await sessionUser(ctx, token);
  // A cookie that names no live session: it expired or was ended, and the sign-in page says so.
  if (!user) redirect(signInPath(given.get('x-vitrine-path'), token !== undefined));
  return user;
}

/** For admin-only pages (shops, staff, outbox): the admin, or the app's 403 page. */
export async function adminForPage(): Promise<StaffUser> {
  const user = await staffForPage();
  if (!user.isAdmin) forbidden();
  return user;
}

/** For a shop's admin pages: the shop, or 404 when it does not exist or is not this member's. */
export async function shopForPage(shopId: string) {
  const user = await staffForPage();
  const [shop] = canSeeShop(user, shopId) && plausibleShopId(shopId) ? await listShops(appContext(), [shopId]) : [];
  if (!shop) notFound();
  return { ...shop, user };
}
