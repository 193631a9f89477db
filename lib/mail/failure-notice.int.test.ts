import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop, createTestStaff, type TestShop } from '@/lib/testing/factories';
import { readMail } from '@/lib/testing/mail';
import { eventually } from '@/lib/testing/receivers';
import { startServer, type TestServer } from '@/lib/testing/server';

type Captured = { envelopeFrom: string; envelopeTo: string[]; raw: string };

/** A real SMTP server on 127.0.0.1 (no TLS, no login needed) that keeps every message. */
async function startSmtpServer() {
  const messages: Captured[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };
  return { port, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type OutboxRow = { id: number; recipient: string; subject: string; text: string; html: string; sent_at: string | Date | null; error: string | null; created_at: string | Date };

async function outboxOf(database: TestDatabase, shop: TestShop): Promise<OutboxRow[]> {
  return database.ctx.sql<OutboxRow[]>`
    select id, recipient, subject, text, html, sent_at, error, created_at from email_outbox where shop_id = ${shop.shop_id} order by recipient`;
}

const PUBLIC_URL = 'https://vitrine.example';

/** The notice the contract asks for, as plain text: what failed, and the first errors. */
function expectedText(shop: TestShop, name: string, importId: number, lines: { operation: string; items: string; failed: string; errors: string[]; heading?: string }) {
  return [
    `Import #${importId} of shop "${name}" (${shop.shop_id}) failed.`,
    '',
    `Operation: ${lines.operation}`,
    `Items: ${lines.items}`,
    `What failed: ${lines.failed}`,
    '',
    lines.heading ?? 'First errors:',
    ...lines.errors.map((e) => `  - ${e}`),
    '',
    `Details: ${PUBLIC_URL}/admin/shops/${shop.shop_id}/imports/${importId}`,
  ].join('\n');
}

describe('failure notices with SMTP_URL', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    database = await createTestDatabase();
    server = await startServer({
      DATABASE_URL: database.url,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}/?ignoreTLS=true`,
      MAIL_FROM: 'Vitrine Alerts <alerts@vitrine.test>',
      PUBLIC_URL,
    });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.close();
    await smtp?.close();
  });

  it('mails each staff member of the shop who takes technical notices, and only them', async () => {
    const name = 'Tea & Café';
    const shop = await createTestShop(database.ctx, { name });
    const otherShop = await createTestShop(database.ctx);
    const member = await createTestStaff(database.ctx, { shops: [shop.shop_id], technicalNotices: true });
    const admin = await createTestStaff(database.ctx, { technicalNotices: true });
    const quiet = await createTestStaff(database.ctx, { shops: [shop.shop_id], technicalNotices: false });
    const elsewhere = await createTestStaff(database.ctx, { shops: [otherShop.shop_id], technicalNotices: true });

    const { importId } = await sendImport(server.url, 'POST', 'categories', shop, {
      categories: [{ id: 'ok', name: 'Fine' }, { id: 'x' }, { id: 'y', name: '' }],
    });
    const record = await waitForImport(server.url, shop, importId!);
    expect(record.status).toBe('failed');
    expect(record.message).toBe('2 of 3 items were rejected; the other one was applied');

    // Recipients are chosen in the transaction that ends the import: the rows are there already.
    const queued = await outboxOf(database, shop);
    expect(queued.map((row) => row.recipient)).toEqual([admin.email, member.email].sort());
    const outbox = await eventually(() => outboxOf(database, shop), (rows) => rows.every((row) => row.sent_at !== null));
    for (const row of outbox) {
      expect(row.error).toBeNull();
      expect(new Date(row.sent_at!).getTime()).toBeGreaterThanOrEqual(new Date(row.created_at).getTime());
    }

    const mails = smtp.messages.filter((m) => readMail(m.raw).subject.includes(`Import #${importId} `));
    expect(mails.map((m) => m.envelopeTo).sort()).toEqual([[admin.email], [member.email]].sort());
    const sentTo = mails.flatMap((m) => m.envelopeTo);
    expect(sentTo).not.toContain(quiet.email);
    expect(sentTo).not.toContain(elsewhere.email);
    expect(smtp.messages.some((m) => m.envelopeTo.includes(quiet.email) || m.envelopeTo.includes(elsewhere.email))).toBe(false);

    const text = expectedText(shop, name, importId!, {
      operation: 'categories.replace',
      items: '3 sent, 1 applied, 2 rejected',
      failed: '2 of 3 items were rejected; the other one was applied',
      errors: ['item 2, id x: name is required', 'item 3, id y: name must not be empty'],
    });
    for (const captured of mails) {
      const mail = readMail(captured.raw);
      const recipient = captured.envelopeTo[0];
      expect(captured.envelopeFrom).toBe('alerts@vitrine.test');
      expect(mail.from).toBe('Vitrine Alerts <alerts@vitrine.test>');
      expect(mail.to).toBe(recipient);
      expect(mail.subject).toBe(`[Vitrine] Import #${importId} (categories.replace) of Tea & Café failed`);
      expect(mail.text).toBe(text);
      expect(mail.html).toContain(`Import <b>#${importId}</b> of shop <b>Tea &#38; Café</b> (${shop.shop_id}) failed.`);
      expect(mail.html).toContain('<tr><td>Operation</td><td>categories.replace</td></tr>');
      expect(mail.html).toContain('<tr><td>What failed</td><td>2 of 3 items were rejected; the other one was applied</td></tr>');
      expect(mail.html).toContain('<li>item 2, id x: name is required</li>');
      expect(mail.html).toContain(`<a href="${PUBLIC_URL}/admin/shops/${shop.shop_id}/imports/${importId}">`);
      // What was sent is what the outbox kept.
      const row = outbox.find((r) => r.recipient === recipient)!;
      expect([row.subject, row.text]).toEqual([mail.subject, mail.text]);
      expect(row.html.replace(/\r\n/g, '\n')).toBe(mail.html);
    }
  });

  it('sends nothing for an import that succeeds', async () => {
    const shop = await createTestShop(database.ctx, { name: 'Success Shop' });
    const member = await createTestStaff(database.ctx, { shops: [shop.shop_id], technicalNotices: true });
    const success = await sendImport(server.url, 'POST', 'categories', shop, { categories: [{ id: 'a', name: 'A' }] });
    expect((await waitForImport(server.url, shop, success.importId!)).status).toBe('done');
    // A notice would have been queued in the transaction that ended the import.
    expect(await outboxOf(database, shop)).toEqual([]);

    // A failing import afterwards: its notice arrives, and it is the only one the member gets.
    const failure = await sendImport(server.url, 'PUT', 'categories', shop, { categories: [{ id: 'b' }] });
    expect((await waitForImport(server.url, shop, failure.importId!)).status).toBe('failed');
    await eventually(() => outboxOf(database, shop), (rows) => rows.length > 0 && rows.every((row) => row.sent_at !== null));
    const received = smtp.messages.filter((m) => m.envelopeTo.includes(member.email)).map((m) => readMail(m.raw).subject);
    expect(received).toEqual([`[Vitrine] Import #${failure.importId} (categories.upsert) of Success Shop failed`]);
    expect(smtp.messages.some((m) => readMail(m.raw).subject.includes(`Import #${success.importId} `))).toBe(false);
  });
});

describe('failure notices without SMTP_URL', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startServer({ DATABASE_URL: database.url, SMTP_URL: undefined, PUBLIC_URL });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.close();
  });

  it('keeps the notice in the outbox, unsent, with the same content', async () => {
    const name = 'Outbox Shop';
    const shop = await createTestShop(database.ctx, { name });
    const member = await createTestStaff(database.ctx, { shops: [shop.shop_id], technicalNotices: true });
    await createTestStaff(database.ctx, { shops: [shop.shop_id], technicalNotices: false });
    // Twelve rejected items: the notice shows the first ten and says so.
    const categories = [{ id: 'fine', name: 'Fine' }, ...Array.from({ length: 12 }, (_, i) => ({ id: `bad${i}` }))];
    const { importId } = await sendImport(server.url, 'POST', 'categories', shop, { categories });
    expect((await waitForImport(server.url, shop, importId!)).status).toBe('failed');

    const rows = await outboxOf(database, shop);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row.recipient).toBe(member.email);
    expect(row.sent_at).toBeNull();
    expect(row.error).toBeNull();
    expect(row.subject).toBe(`[Vitrine] Import #${importId} (categories.replace) of ${name} failed`);
    expect(row.text).toBe(
      expectedText(shop, name, importId!, {
        operation: 'categories.replace',
        items: '13 sent, 1 applied, 12 rejected',
        failed: '12 of 13 items were rejected; the other one was applied',
        heading: 'First errors (10 of 12):',
        errors: Array.from({ length: 10 }, (_, i) => `item ${i + 2}, id bad${i}: name is required`),
      }),
    );
    expect(row.html).toContain(`Import <b>#${importId}</b> of shop <b>Outbox Shop</b> (${shop.shop_id}) failed.`);
    expect(row.html.match(/<li>/g)).toHaveLength(10);
    expect(row.html).toContain('<li>item 11, id bad9: name is required</li>');
    expect(row.html).not.toContain('bad10');

    // Nothing picks it up later either.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await outboxOf(database, shop)).map((r) => [r.sent_at, r.error])).toEqual([[null, null]]);
  });
});
