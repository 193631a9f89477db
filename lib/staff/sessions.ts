import crypto from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { staffSessions, staffUsers } from '@/db/schema';
import { assertNotLockedOut, noteAuthFailure } from '@/lib/http/auth-failures';
import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { DECOY_HASH, generateToken, verifySecret } from '@/lib/shops/secrets';
import { LoginInput } from './schemas';
import { loadStaffUser, type StaffUser } from './users';

export const SESSION_COOKIE = 'vitrine_session';

const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * Checks a staff login and opens a session; returns the cookie token and its expiry. Failed
 * sign-ins are limited per client address (with the shops' failed authentications) and per
 * account, so passwords cannot be guessed at the speed of scrypt, and a flood of guesses does
 * not take the CPU (each costs a scrypt).
 */
export async function logIn(ctx: AppContext, input: unknown, address: string): Promise<{ token: string; expires: Date }> {
  const { limits } = ctx.settings;
  if (limits.enabled) assertNotLockedOut(address, limits.authFailuresPerMinute);
  const { email, password } = LoginInput.parse(input);
  const account = `sign-in:${email}`;
  if (limits.enabled) assertNotLockedOut(account, limits.authFailuresPerMinute, undefined, 'Too many failed sign-ins to this account');
  const [user] = await ctx.db.select().from(staffUsers).where(eq(staffUsers.email, email));
  const ok = await verifySecret(password, user?.passwordHash ?? DECOY_HASH);
  if (!user || !ok) {
    noteAuthFailure(address);
    noteAuthFailure(account);
    throw new AppError('UNAUTHENTICATED', 'Wrong email or password');
  }
  const token = generateToken(32);
  const expires = new Date(Date.now() + ctx.settings.sessionDays * 86_400_000);
  await ctx.db.delete(staffSessions).where(lt(staffSessions.expiresAt, new Date()));
  await ctx.db.insert(staffSessions).values({ tokenHash: tokenHash(token), userId: user.id, expiresAt: expires });
  return { token, expires };
}

export async function logOut(ctx: AppContext, token: string | undefined): Promise<void> {
  if (token) await ctx.db.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenHash(token)));
}

export async function sessionUser(ctx: AppContext, token: string | undefined): Promise<StaffUser | null> {
  if (!token) return null;
  const [session] = await ctx.db
    .select({ userId: staffSessions.userId })
    .from(staffSessions)
    .where(and(eq(staffSessions.tokenHash, tokenHash(token)), gt(staffSessions.expiresAt, new Date())));
  return session ? loadStaffUser(ctx, session.userId) : null;
}
