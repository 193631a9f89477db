import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop, createTestStaff } from '@/lib/testing/factories';
import { eventually, startSmtpCapture } from '@/lib/testing/receivers';
import { startServer, type TestServer } from '@/lib/testing/server';

let database: TestDatabase;
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  database = await createTestDatabase();
  server = await startServer({ DATABASE_URL: database.url, SMTP_URL: smtp.url, MAIL_FROM: 'Vitrine <alerts@vitrine.test>', PUBLIC_URL: 'https://vitrine.example' });
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await smtp?.close();
});

/** Headers and text body of a captured message, with quoted-printable soft breaks undone. */
function readMail(raw: string) {
  const softBreaksUndone = raw.replace(/=\r?\n/g, '');
  const unfolded = Buffer.from(softBreaksUndone.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
  return { raw: unfolded, subject: /^Subject: (.*)$/m.exec(unfolded)?.[1] ?? '' };
}

describe('failure notices', () => {
  it('emails each staff member of the shop who takes technical notices, and only them', async () => {
    const shop = await createTestShop(database.ctx, { name: 'Notice Shop' });
    const other = await createTestShop(database.ctx);
    const member = await createTestStaff(database.ctx, { shops: [shop.shop_id], technicalNotices: true });
    const admin = await createTestStaff(database.ctx, { technicalNotices: true });
    const quiet = await createTestStaff(database.ctx, { shops: [shop.shop_id], technicalNotices: false });
    const elsewhere = await createTestStaff(database.ctx, { shops: [other.shop_id], technicalNotices: true });

    const { importId } = await sendImport(server.url, 'POST', 'categories', shop, {
      categories: [{ id: 'ok', name: 'Fine' }, { id: 'bad' }, { id: 'loop', name: 'Loop', parent: 'loop' }],
    });
    expect((await waitForImport(server.url, shop, importId!)).status).toBe('failed');
    const messages = await eventually(() => smtp.messages.filter((m) => m.raw.includes(`Import #${importId}`)), (list) => list.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const recipients = smtp.messages.filter((m) => m.raw.includes(`Import #${importId}`)).flatMap((m) => m.to).sort();
    expect(recipients).toEqual([admin.email, member.email].sort());
    expect(recipients).not.toContain(quiet.email);
    expect(recipients).not.toContain(elsewhere.email);

    const mail = readMail(messages[0].raw);
    expect(messages[0].from).toBe('alerts@vitrine.test');
    expect(mail.subject).toBe(`[Vitrine] Import #${importId} (categories.replace) of Notice Shop failed`);
    expect(mail.raw).toContain('Items: 3 sent, 1 applied, 2 rejected');
    expect(mail.raw).toContain('What failed: 2 of 3 items were rejected; the other 1 were applied');
    expect(mail.raw).toContain('#1, id bad: name is required');
    expect(mail.raw).toContain('#2, id loop: parent chain forms a cycle: loop → loop');
    expect(mail.raw).toContain(`https://vitrine.example/admin/shops/${shop.shop_id}/imports?import=${importId}`);

    const outbox = await database.ctx.sql<{ recipient: string; sent: boolean; error: string | null }[]>`
      select recipient, sent_at is not null as sent, error from email_outbox where shop_id = ${shop.shop_id} order by recipient`;
    expect(outbox).toEqual([admin.email, member.email].sort().map((recipient) => ({ recipient, sent: true, error: null })));
  });

  it('sends nothing for an import that succeeds', async () => {
    const shop = await createTestShop(database.ctx);
    await createTestStaff(database.ctx, { shops: [shop.shop_id], technicalNotices: true });
    const { importId } = await sendImport(server.url, 'POST', 'categories', shop, { categories: [{ id: 'a', name: 'A' }] });
    expect((await waitForImport(server.url, shop, importId!)).status).toBe('done');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [{ count }] = await database.ctx.sql<{ count: number }[]>`select count(*)::int as count from email_outbox where shop_id = ${shop.shop_id}`;
    expect(count).toBe(0);
    expect(smtp.messages.some((m) => m.raw.includes(`Import #${importId}`))).toBe(false);
  });
});

describe('without SMTP_URL', () => {
  it('keeps the rendered notice in the outbox', async () => {
    const quietDb = await createTestDatabase();
    const quietServer = await startServer({ DATABASE_URL: quietDb.url, SMTP_URL: undefined });
    try {
      const shop = await createTestShop(quietDb.ctx, { name: 'Outbox Shop' });
      const staff = await createTestStaff(quietDb.ctx, { shops: [shop.shop_id], technicalNotices: true });
      const { importId } = await sendImport(quietServer.url, 'PUT', 'products', shop, { items: [{ id: 'p', name: 'P', price: 0, url: 'u', picture: 'p', categories: [] }] });
      expect((await waitForImport(quietServer.url, shop, importId!)).status).toBe('failed');
      const [row] = await quietDb.ctx.sql<{ recipient: string; subject: string; text: string; html: string; sent_at: string | null }[]>`
        select recipient, subject, text, html, sent_at from email_outbox where shop_id = ${shop.shop_id}`;
      expect(row.recipient).toBe(staff.email);
      expect(row.subject).toBe(`[Vitrine] Import #${importId} (products.put) of Outbox Shop failed`);
      expect(row.text).toContain('#0, id p: price must be greater than 0');
      expect(row.html).toContain('<li>#0, id p: price must be greater than 0</li>');
      expect(row.sent_at).toBeNull();
    } finally {
      await quietServer.stop();
      await quietDb.close();
    }
  });
});
