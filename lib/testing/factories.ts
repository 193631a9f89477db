import crypto from 'node:crypto';
import type { AppContext } from '@/lib/runtime/context';
import { createShop } from '@/lib/shops/manage-shops';
import { createStaffUser } from '@/lib/staff/users';

export type TestShop = { shop_id: string; shop_secret: string };

export async function createTestShop(ctx: AppContext, overrides: { name?: string; currency?: string } = {}): Promise<TestShop> {
  return createShop(ctx, { name: overrides.name ?? `Shop ${crypto.randomBytes(3).toString('hex')}`, currency: overrides.currency ?? 'USD' });
}

export async function createTestStaff(ctx: AppContext, options: { shops?: string[]; technicalNotices?: boolean } = {}) {
  const email = `staff-${crypto.randomBytes(4).toString('hex')}@example.test`;
  const password = `pw-${crypto.randomBytes(6).toString('hex')}`;
  await createStaffUser(ctx, { email, password, shops: options.shops ?? [], technicalNotices: options.technicalNotices ?? false });
  return { email, password };
}
