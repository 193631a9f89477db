import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { appContext } from '@/lib/runtime/context';
import { overHttps, sessionTokenFrom } from './admin-auth';
import { sessionUser } from './sessions';
import { listShops } from '@/lib/shops/manage-shops';
import { canSeeShop, plausibleShopId, type StaffUser } from './users';

/** For admin pages: the signed-in staff member, or a redirect to the login page. */
export async function staffForPage(): Promise<StaffUser> {
  const ctx = appContext();
  const given = await headers();
  const user = await sessionUser(ctx, sessionTokenFrom(given.get('cookie'), overHttps(given, undefined, ctx.settings.publicUrl)));
  if (!user) redirect('/admin/login');
  return user;
}

/** For a shop's admin pages: the shop, or 404 when it does not exist or is not this member's. */
export async function shopForPage(shopId: string) {
  const user = await staffForPage();
  const [shop] = canSeeShop(user, shopId) && plausibleShopId(shopId) ? await listShops(appContext(), [shopId]) : [];
  if (!shop) notFound();
  return shop;
}
