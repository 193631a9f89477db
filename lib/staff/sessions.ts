import crypto from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { staffSessions, staffUsers } from '@/db/schema';
import { assertNotLockedOut, noteAuthFailure } from '@/lib/http/auth-failures';
import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { STAFF_DECOY_HASH, STAFF_PASSWORD_PARAMS, generateToken, hashSecret, verifySecret, weakerThan } from '@/lib/shops/secrets';
import { LoginInput } from './schemas';
import { loadStaffUser, type StaffUser } from './users';

export const SESSION_COOKIE = 'vitrine_session';
// Over HTTPS: a `__Host-` cookie is Secure, for this host only and path /, so neither plain HTTP
// nor a sibling domain can set it.
export const SECURE_SESSION_COOKIE = '__Host-vitrine_session';

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
  const ok = await verifySecret(password, user?.passwordHash ?? STAFF_DECOY_HASH);
  if (!user || !ok) {
    noteAuthFailure(address);
    noteAuthFailure(account);
    throw new AppError('UNAUTHENTICATED', 'Wrong email or password');
  }
  // A hash made with less work (before scrypt's cost was raised) is made anew while the password is at hand.
  if (weakerThan(user.passwordHash, STAFF_PASSWORD_PARAMS)) {
    const upgraded = await hashSecret(password, STAFF_PASSWORD_PARAMS);
    await ctx.db.update(staffUsers).set({ passwordHash: upgraded }).where(and(eq(staffUsers.id, user.id), eq(staffUsers.passwordHash, user.passwordHash)));
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
