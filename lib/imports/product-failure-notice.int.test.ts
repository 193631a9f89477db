import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop, createTestStaff } from '@/lib/testing/factories';
import { productItem } from '@/lib/testing/applied-imports';
import { readMail } from '@/lib/testing/mail';
import { eventually, startHttpReceiver, startSmtpCapture } from '@/lib/testing/receivers';
import { startServer, type TestServer } from '@/lib/testing/server';

const PUBLIC_URL = 'https://vitrine.example';

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
let database: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  receiver = await startHttpReceiver();
  database = await createTestDatabase();
  // The receiver listens on 127.0.0.1, which the webhook guard refuses unless allow-listed.
  server = await startServer({
    DATABASE_URL: database.url,
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Vitrine Alerts <alerts@vitrine.test>',
    PUBLIC_URL,
  });
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await receiver?.close();
  await smtp?.close();
});

it('fails a products PUT with a skipped item: the valid one is stored, the webhook gets the error body, staff get an email', async () => {
  const name = 'Product Failure Shop';
  const shop = await createTestShop(database.ctx, { name });
  const member = await createTestStaff(database.ctx, { shops: [shop.shop_id], technicalNotices: true });
  const product = (id: string, price: number) => productItem(id, { price });

  const { response, importId } = await sendImport(server.url, 'PUT', 'products', shop, {
    items: [product('good', 25), product('free', 0)],
    webhook: `${receiver.url}/hooks/products`,
  });
  expect(response.status).toBe(204);
  const record = await waitForImport(server.url, shop, importId!);
  const message = '1 of 2 items was rejected; the other one was applied';
  const errors = [{ item_id: 'free', position: 1, message: 'price must be greater than 0' }];
  expect(record).toMatchObject({ status: 'failed', items_total: 2, items_applied: 1, items_rejected: 1, message, errors });

  const stored = await database.ctx.sql<{ id: string; price: number; available: boolean }[]>`
    select p.id, p.price, st.available from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
     where p.shop_id = ${shop.shop_id} order by p.id`;
  expect(stored).toEqual([{ id: 'good', price: 25, available: true }]);

  const [delivery] = await eventually(() => receiver.received, (list) => list.length > 0);
  expect(delivery.path).toBe('/hooks/products');
  expect(delivery.headers['x-vitrine-signature']).toBe(`sha256=${crypto.createHmac('sha256', shop.shop_secret).update(delivery.body).digest('hex')}`);
  expect(JSON.parse(delivery.body)).toEqual({
    status: 'error',
    message,
    import_id: importId,
    operation: 'products.put',
    items_total: 2,
    items_applied: 1,
    items_rejected: 1,
    errors,
  });

  const [mail] = await eventually(() => smtp.messages.filter((m) => m.to.includes(member.email)), (list) => list.length > 0);
  expect(mail.from).toBe('alerts@vitrine.test');
  const { subject, text } = readMail(mail.raw);
  expect(subject).toBe(`[Vitrine] Import #${importId} (products.put) of ${name} failed`);
  expect(text).toBe(
    [
      `Import #${importId} of shop "${name}" (${shop.shop_id}) failed.`,
      '',
      'Operation: products.put',
      'Items: 2 sent, 1 applied, 1 rejected',
      `What failed: ${message}`,
      '',
      'First errors:',
      '  - item 2, id free: price must be greater than 0',
      '',
      `Details: ${PUBLIC_URL}/admin/shops/${shop.shop_id}/imports/${importId}`,
    ].join('\n'),
  );
});
