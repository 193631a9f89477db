import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, sessionUser } from './sessions';
import { canSeeShop, type StaffUser } from './users';

/**
 * Whether the admin app is reached over HTTPS: the request's own scheme, a TLS proxy in front
 * saying so (X-Forwarded-Proto), or an https PUBLIC_URL. Then the session cookie is `__Host-`
 * prefixed and Secure, and only that cookie is read: a cookie set over plain HTTP, or by a
 * sibling domain, cannot stand in for it.
 */
export function overHttps(headers: Headers, url: string | undefined, publicUrl: string | undefined): boolean {
  if (publicUrl?.startsWith('https:')) return true;
  if (url?.startsWith('https:')) return true;
  return headers.get('x-forwarded-proto')?.split(',')[0].trim().toLowerCase() === 'https';
}

const cookieName = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

export function sessionTokenFrom(cookieHeader: string | null, secure = false): string | undefined {
  const wanted = cookieName(secure);
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== wanted) continue;
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
  const user = await sessionUser(ctx, sessionTokenFrom(req.headers.get('cookie'), overHttps(req.headers, req.url, ctx.settings.publicUrl)));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
  // A shop the user may not see answers like a shop that does not exist.
  if (shopId !== undefined && !canSeeShop(user, shopId)) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  return user;
}

/** The session cookie (empty and expired to sign out); `__Host-` prefixed and Secure over HTTPS. */
export function sessionCookie(token: string, expires: Date | null, secure: boolean): string {
  const parts = [`${cookieName(secure)}=${expires ? token : ''}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  parts.push(expires ? `Expires=${expires.toUTCString()}` : 'Max-Age=0');
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
