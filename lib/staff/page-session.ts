import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { appContext } from '@/lib/runtime/context';
import { SESSION_COOKIE, sessionUser } from './sessions';
import type { StaffUser } from './users';

/** For admin pages: the signed-in staff member, or a redirect to the login page. */
export async function staffForPage(): Promise<StaffUser> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const user = await sessionUser(appContext(), token);
  if (!user) redirect('/admin/login');
  return user;
}
