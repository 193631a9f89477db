import { expect, it } from 'vitest';
import { createTestShop } from '@/lib/testing/factories';
import { databaseAsAppContext } from '@/lib/testing/fixtures';
import { flagEmail, flagsCsv, listEmailFlags, pageEmailFlags } from './email-flags';
import { flagTotals } from './flag-totals';
import { importFlags } from './import-flags';

const fixture = databaseAsAppContext();

it('imports flags from CSV as the export writes it, skipping the lines it cannot read, and totals them', async () => {
  const ctx = fixture.database.ctx;
  const shop = await createTestShop(ctx);
  await flagEmail(ctx, shop.shop_id, { email: 'had@example.com', event: 'complained' });
  const exported = flagsCsv([{ email: 'had@example.com', flags: ['complained', 'unsubscribed'], updated_at: '2026-01-01T00:00:00.000Z' }]);
  const csv = `${exported}"Quoted@Example.com";hard_bounced\nbare@example.com\nbare@example.com,complained\n\nnope,complained\nx@example.com,frozen\n`;
  expect(await importFlags(ctx, shop.shop_id, csv, 'blacklisted')).toEqual({
    changed: 3,
    unchanged: 0,
    rejected: [
      { line: 7, message: 'nope is not an email address' },
      { line: 8, message: 'frozen is not a flag (complained, hard_bounced, blacklisted, unsubscribed)' },
    ],
  });
  const flags = Object.fromEntries((await listEmailFlags(ctx, shop.shop_id)).map((f) => [f.email, f.flags]));
  expect(flags).toEqual({ 'had@example.com': ['complained', 'unsubscribed'], 'quoted@example.com': ['hard_bounced'], 'bare@example.com': ['blacklisted', 'complained'] });
  expect(await importFlags(ctx, shop.shop_id, 'bare@example.com,complained', undefined)).toEqual({ changed: 0, unchanged: 1, rejected: [] });
  expect(await importFlags(ctx, shop.shop_id, 'solo@example.com', undefined)).toMatchObject({ changed: 0, rejected: [{ line: 1 }] });
  await expect(importFlags(ctx, shop.shop_id, 'a@b.c', 'sleepy')).rejects.toThrow('flag must be one of');

  expect(await flagTotals(ctx, shop.shop_id)).toEqual({ emails: 3, by_flag: { complained: 2, hard_bounced: 1, blacklisted: 1, unsubscribed: 1 } });
  const page = await pageEmailFlags(ctx, shop.shop_id, { limit: 10, q: 'QUOTED' });
  expect(page.flags.map((f) => f.email)).toEqual(['quoted@example.com']);
  expect((await pageEmailFlags(ctx, shop.shop_id, { limit: 10, flag: 'complained' })).flags.map((f) => f.email).sort()).toEqual(['bare@example.com', 'had@example.com']);
  await expect(pageEmailFlags(ctx, shop.shop_id, { limit: 10, flag: 'other' })).rejects.toThrow('flag must be one of');
});
