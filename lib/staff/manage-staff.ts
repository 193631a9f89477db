import { asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { shops, staffSessions, staffShops, staffUsers } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import type { AppContext } from '@/lib/runtime/context';
import { hashSecret } from '@/lib/shops/secrets';
import { Email } from './schemas';
import type { StaffUser } from './users';

type Ctx = Pick<AppContext, 'db'>;

export type StaffAccount = { id: number; email: string; is_admin: boolean; shops: string[]; technical_notices: boolean; created_at: string };

const Password = z.string({ error: 'password is required' }).min(8, 'password must be at least 8 characters').max(200, 'password must be at most 200 characters');
const Access = {
  // An admin sees every shop; anyone else the shops listed.
  is_admin: z.boolean({ error: 'is_admin must be true or false' }),
  shops: z.array(z.string(), { error: 'shops must be a list of shop ids' }).max(10_000).default([]),
  technical_notices: z.boolean({ error: 'technical_notices must be true or false' }).default(false),
};
export const StaffCreateInput = z.object({ email: Email, password: Password, ...Access });
export const StaffAccessInput = z.object(Access);
export const PasswordInput = z.object({ password: Password });

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
  return parsed.data;
}

async function checkedShops(ctx: Ctx, isAdmin: boolean, requested: string[]): Promise<string[]> {
  const shopIds = [...new Set(requested)];
  if (isAdmin) return [];
  if (shopIds.length === 0) throw new AppError('VALIDATION', 'Choose at least one shop, or make the account an admin of every shop');
  const found = await ctx.db.select({ id: shops.id }).from(shops).where(inArray(shops.id, shopIds));
  const missing = shopIds.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw new AppError('NOT_FOUND', `Shop ${missing.join(', ')} not found`);
  return shopIds;
}

export async function listStaff(ctx: Ctx): Promise<StaffAccount[]> {
  const users = await ctx.db.select().from(staffUsers).orderBy(asc(staffUsers.email));
  const memberships = await ctx.db.select().from(staffShops);
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    is_admin: u.isAdmin,
    shops: memberships.filter((m) => m.userId === u.id).map((m) => m.shopId),
    technical_notices: u.technicalNotices,
    created_at: new Date(u.createdAt).toISOString(),
  }));
}

/** A new staff account (the app's way of inviting someone: an admin picks a first password). */
export async function createStaff(ctx: Ctx, input: unknown): Promise<{ id: number }> {
  const { email, password, is_admin, shops: requested, technical_notices } = parse(StaffCreateInput, input);
  const shopIds = await checkedShops(ctx, is_admin, requested);
  const passwordHash = await hashSecret(password);
  return ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(staffUsers)
      .values({ email, passwordHash, isAdmin: is_admin, technicalNotices: technical_notices })
      .onConflictDoNothing({ target: staffUsers.email })
      .returning({ id: staffUsers.id });
    if (!user) throw new AppError('VALIDATION', `An account for ${email} exists already`);
    if (shopIds.length) await tx.insert(staffShops).values(shopIds.map((shopId) => ({ shopId, userId: user.id })));
    return { id: user.id };
  });
}

/** Changes what an account sees and whether it gets technical notices. */
export async function updateStaffAccess(ctx: Ctx, actor: StaffUser, id: number, input: unknown): Promise<void> {
  const { is_admin, shops: requested, technical_notices } = parse(StaffAccessInput, input);
  if (id === actor.id && !is_admin) throw new AppError('VALIDATION', 'You cannot take your own admin rights away');
  const shopIds = await checkedShops(ctx, is_admin, requested);
  await ctx.db.transaction(async (tx) => {
    const updated = await tx.update(staffUsers).set({ isAdmin: is_admin, technicalNotices: technical_notices }).where(eq(staffUsers.id, id)).returning({ id: staffUsers.id });
    if (updated.length === 0) throw new AppError('NOT_FOUND', 'Staff account not found');
    await tx.delete(staffShops).where(eq(staffShops.userId, id));
    if (shopIds.length) await tx.insert(staffShops).values(shopIds.map((shopId) => ({ shopId, userId: id })));
  });
}

/** Sets a new password; the account's sessions end (it signs in again with the new one). */
export async function resetStaffPassword(ctx: Ctx, id: number, input: unknown): Promise<void> {
  const { password } = parse(PasswordInput, input);
  const passwordHash = await hashSecret(password);
  await ctx.db.transaction(async (tx) => {
    const updated = await tx.update(staffUsers).set({ passwordHash }).where(eq(staffUsers.id, id)).returning({ id: staffUsers.id });
    if (updated.length === 0) throw new AppError('NOT_FOUND', 'Staff account not found');
    await tx.delete(staffSessions).where(eq(staffSessions.userId, id));
  });
}

/** Removes an account and its sessions; nobody removes their own. */
export async function removeStaff(ctx: Ctx, actor: StaffUser, id: number): Promise<void> {
  if (id === actor.id) throw new AppError('VALIDATION', 'You cannot remove your own account');
  const removed = await ctx.db.delete(staffUsers).where(eq(staffUsers.id, id)).returning({ id: staffUsers.id });
  if (removed.length === 0) throw new AppError('NOT_FOUND', 'Staff account not found');
}

/** A staff account id of an admin path; anything else names no account. */
export function staffIdOf(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new AppError('NOT_FOUND', 'Staff account not found');
  return Number(value);
}
