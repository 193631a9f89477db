import { eq, inArray } from 'drizzle-orm';
import { shops, staffSessions, staffShops, staffUsers } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { STAFF_PASSWORD_PARAMS, hashSecret } from '@/lib/shops/secrets';
import { StaffUserInput } from './schemas';

type Ctx = Pick<AppContext, 'db'>;

/**
 * A staff account; without shops, an admin of every shop. Re-creating an email sets the account
 * anew (password, shops or admin, technical notices): the CLI's only way to reset a password or
 * change what someone sees (docs/decisions.md).
 */
export async function createStaffUser(ctx: Ctx, input: StaffUserInput) {
  const { email, password, shops: requested, technicalNotices } = StaffUserInput.parse(input);
  const shopIds = [...new Set(requested)];
  if (shopIds.length) {
    const found = await ctx.db.select({ id: shops.id }).from(shops).where(inArray(shops.id, shopIds));
    const missing = shopIds.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw new AppError('NOT_FOUND', `Shop ${missing.join(', ')} not found`);
  }
  const passwordHash = await hashSecret(password, STAFF_PASSWORD_PARAMS);
  await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(staffUsers)
      .values({ email, passwordHash, isAdmin: shopIds.length === 0, technicalNotices })
      .onConflictDoUpdate({ target: staffUsers.email, set: { passwordHash, isAdmin: shopIds.length === 0, technicalNotices } })
      .returning({ id: staffUsers.id });
    // Setting an account anew (a password reset, access changed) ends the sessions it had.
    await tx.delete(staffSessions).where(eq(staffSessions.userId, user.id));
    await tx.delete(staffShops).where(eq(staffShops.userId, user.id));
    if (shopIds.length) await tx.insert(staffShops).values(shopIds.map((shopId) => ({ shopId, userId: user.id })));
  });
  return { email };
}

export type StaffUser = { id: number; email: string; isAdmin: boolean; shopIds: string[] };

export async function loadStaffUser(ctx: Ctx, userId: number): Promise<StaffUser | null> {
  const [user] = await ctx.db.select().from(staffUsers).where(eq(staffUsers.id, userId));
  if (!user) return null;
  const memberships = await ctx.db.select({ shopId: staffShops.shopId }).from(staffShops).where(eq(staffShops.userId, userId));
  return { id: user.id, email: user.email, isAdmin: user.isAdmin, shopIds: memberships.map((m) => m.shopId) };
}

export { plausibleShopId } from '@/lib/shops/schemas';

export function canSeeShop(user: StaffUser, shopId: string): boolean {
  return user.isAdmin || user.shopIds.includes(shopId);
}
