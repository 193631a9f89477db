import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { SESSION_COOKIE, sessionUser } from './sessions';
import { canSeeShop, type StaffUser } from './users';

export function sessionTokenFrom(cookieHeader: string | null): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      return undefined; // not a cookie of ours: no session
    }
  }
  return undefined;
}

/** The signed-in staff member of an admin API request, allowed to see `shopId` when given. */
export async function requireStaff(ctx: AppContext, req: Request, shopId?: string): Promise<StaffUser> {
  const user = await sessionUser(ctx, sessionTokenFrom(req.headers.get('cookie')));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
  // A shop the user may not see answers like a shop that does not exist.
  if (shopId !== undefined && !canSeeShop(user, shopId)) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  return user;
}

export function sessionCookie(token: string, expires: Date | null, secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=${expires ? token : ''}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  parts.push(expires ? `Expires=${expires.toUTCString()}` : 'Max-Age=0');
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
