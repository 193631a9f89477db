import http from 'node:http';
import { expect, test } from '@playwright/test';
import { admin, baseUrl, checkPage, importAndWait, logIn, otherShop, sendImport, shop } from './support';

// A webhook receiver for the spec: answers each path's status (default 200).
let receiver: http.Server;
let receiverPort = 0;
test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url === '/broken' ? 500 : 200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as { port: number }).port;
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const items = (count: number, bad: number) => [
  ...Array.from({ length: count }, (_, i) => ({ id: `ok${i}`, name: `Good ${i}`, price: 10 + i, url: `https://shop.example/ok${i}`, picture: `https://cdn.example/ok${i}.jpg`, categories: [] })),
  ...Array.from({ length: bad }, (_, i) => ({ id: `bad${i}`, name: `Bad ${i}`, price: 0, url: `https://shop.example/bad${i}`, picture: `https://cdn.example/bad${i}.jpg`, categories: [] })),
];

test('a shop’s whole import history pages, filters by status, operation and date, and names operations for people', async ({ page }) => {
  // Another shop, so the counts are this test's own; an admin sees every shop.
  const credentials = otherShop();
  const ids: number[] = [];
  for (let i = 0; i < 52; i++) ids.push(await sendImport('PUT', 'categories', { categories: [{ id: `c${i}`, name: `Category ${i}`, parent: null }] }, credentials));
  const failed = await importAndWait('PUT', 'locations', { locations: [{ id: 'x', name: 'No parent field' }] }, 'failed', credentials);
  await importAndWait('PUT', 'categories', { categories: [{ id: 'last', name: 'Last', parent: null }] }, 'done', credentials);

  await logIn(page, admin());
  await page.goto(`${baseUrl()}/admin/shops/${credentials.shop_id}/imports`);
  await expect(page.getByTestId('imports-total')).toHaveText('54 imports');
  const rows = page.getByTestId(/^import-\d+$/);
  await expect(rows).toHaveCount(50);
  await expect(page.getByTestId(`import-${failed}`)).toContainText('Locations: add or update');
  await expect(page.getByTestId(`import-${failed}`)).toContainText('1 of 1 items was rejected; none was applied');
  await expect(page.getByTestId(`import-${ids[10]}`)).toContainText('Categories: add or update');
  await expect(page.getByTestId(`import-${ids[10]}`)).toContainText('1 of 1 applied');
  await checkPage(page, 'imports');

  await page.getByRole('button', { name: 'Older →' }).click();
  await expect(rows).toHaveCount(4);
  await expect(page.getByTestId(`import-${ids[0]}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Older →' })).toBeDisabled();
  await page.getByRole('button', { name: '← Newer' }).click();
  await expect(rows).toHaveCount(50);
  await expect(page.getByRole('button', { name: '← Newer' })).toBeDisabled();

  await page.getByLabel('Status').selectOption('failed');
  await expect(page.getByTestId('imports-total')).toHaveText('1 import matches');
  await expect(rows).toHaveCount(1);
  // The filter is in the address: a reload keeps it.
  await expect(page).toHaveURL(/status=failed/);
  await page.reload();
  await expect(rows).toHaveCount(1);
  await page.getByLabel('Status').selectOption('');
  await page.getByLabel('Operation').selectOption({ label: 'Categories: add or update' });
  await expect(page.getByTestId('imports-total')).toHaveText('53 imports match');
  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
  await page.getByLabel('Received from').fill(day);
  await expect(page.getByText('No import matches these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByTestId('imports-total')).toHaveText('54 imports');
});

test('an import’s own page shows its counts, searchable paged errors, the webhook’s retries, the failure email and the body as sent', async ({ page }) => {
  const body = { ...shop(), items: items(1, 150), webhook: `http://localhost:${receiverPort}/broken` };
  const response = await fetch(`${baseUrl()}/import/products`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const id = Number(response.headers.get('x-import-id'));

  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/imports`);
  // Open it with the keyboard: its link is a tab stop like any other.
  const link = page.getByRole('link', { name: `#${id} Products: add or update` });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/imports/${id}$`));
  await expect(page.getByRole('heading', { name: `E2E Outfitters: import #${id}` })).toBeVisible();
  await expect(page.getByTestId('import-status')).toHaveText('Failed');
  await expect(page.getByText('150 of 151 items were rejected; the other one was applied')).toBeVisible();
  await expect(page.getByTestId('fact-total')).toHaveText('151');
  await expect(page.getByTestId('fact-rejected')).toHaveText('150');

  const errors = page.getByTestId('import-errors');
  await expect(errors.getByRole('heading')).toHaveText('Errors (150)');
  await expect(errors.locator('li')).toHaveCount(100);
  await expect(errors.locator('li').first()).toHaveText('Item 2, id bad0: price must be greater than 0');
  await errors.getByRole('button', { name: 'Next' }).click();
  await expect(errors.locator('li')).toHaveCount(50);
  await expect(errors).toContainText('Page 2 of 2');
  await errors.getByLabel('Search errors').fill('bad149');
  await expect(errors.locator('li')).toHaveCount(1);
  await expect(errors.locator('li')).toHaveText('Item 151, id bad149: price must be greater than 0');
  await errors.getByLabel('Search errors').fill('no such thing');
  await expect(errors).toContainText('Nothing matches “no such thing”');

  // The receiver answered 500: the webhook is retried later, and the page says when.
  await expect(page.getByTestId('webhook-state')).toHaveText(/Webhook retrying: 1 try failed, next in/);
  await expect(page.getByTestId('webhook-attempts')).toContainText('failed: the receiver answered HTTP 500');
  await expect(page.getByTestId('webhook-next')).toContainText('Next try');

  await expect(page.getByTestId('email-subject')).toHaveText(`[Vitrine] Import #${id} (products.put) of E2E Outfitters failed`);
  await expect(page.getByTestId('email-recipients')).toContainText('merchandiser@e2e.test');
  await expect(page.getByTestId('email-recipients')).toContainText('kept in the outbox');
  await expect(page.frameLocator('iframe[title="The failure email"]').getByText('item 2, id bad0: price must be greater than 0')).toBeVisible();
  await page.getByLabel('Show the plain-text version').check();
  await expect(page.getByText('What failed: 150 of 151 items were rejected')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download the request as sent' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`import-${id}.json`);
  const chunks: Buffer[] = [];
  for await (const chunk of (await file.createReadStream())!) chunks.push(chunk as Buffer);
  expect(JSON.parse(Buffer.concat(chunks).toString())).toEqual(body);
  await checkPage(page, 'import');
});

test('webhooks delivered and refused read as such; a large import turns done without a reload; the email’s old link opens the import', async ({ page }) => {
  const delivered = await importAndWait('PUT', 'categories', { categories: [{ id: 'w1', name: 'Webhooked', parent: null }], webhook: `http://localhost:${receiverPort}/ok` });
  const refused = await importAndWait('PUT', 'categories', { categories: [{ id: 'w2', name: 'Refused', parent: null }], webhook: `http://127.0.0.1:${receiverPort}/ok` });
  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/imports?import=${delivered}`);
  await expect(page).toHaveURL(new RegExp(`/imports/${delivered}$`));
  await expect(page.getByTestId('webhook-state')).toHaveText('Webhook delivered');
  await expect(page.getByTestId('webhook-attempts')).toContainText('delivered (HTTP 200)');
  await expect(page.getByText('Emails are sent only when an import fails.')).toBeVisible();

  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/imports`);
  await expect(page.getByTestId(`import-${refused}`).getByTestId('webhook-state')).toHaveText('Webhook gave up after 1 try');
  await expect(page.getByTestId(`import-${delivered}`).getByTestId('webhook-state')).toHaveText('Webhook delivered');

  // A large import appears and turns done without a reload.
  const big = await sendImport('PUT', 'products', { items: items(30_000, 0).map((item, i) => ({ ...item, id: `big${i}` })) });
  const row = page.getByTestId(`import-${big}`);
  await expect(row.getByTestId('import-status')).toHaveText('Done', { timeout: 60_000 });
  await expect(row).toContainText('30,000 of 30,000 applied');
});

test('staff limited to one shop cannot list or open another shop’s imports', async ({ page }) => {
  const theirs = await importAndWait('PUT', 'categories', { categories: [{ id: 'secret', name: 'Secret', parent: null }] }, 'done', otherShop());
  await logIn(page);
  await expect(page.getByRole('link', { name: /Other Shop/ })).toHaveCount(0);
  for (const path of [`/admin/shops/${otherShop().shop_id}/imports`, `/admin/shops/${otherShop().shop_id}/imports/${theirs}`, `/admin/shops/${shop().shop_id}/imports/${theirs}`]) {
    const response = await page.goto(`${baseUrl()}${path}`);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByTestId('staff-email')).toHaveText('merchandiser@e2e.test');
  }
  const api = await page.request.get(`${baseUrl()}/admin/api/shops/${otherShop().shop_id}/imports/${theirs}`);
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({ status: 'error', payload: { message: `Shop ${otherShop().shop_id} not found` } });
  const body = await page.request.get(`${baseUrl()}/admin/api/shops/${shop().shop_id}/imports/${theirs}/body`);
  expect(body.status()).toBe(404);
  expect((await body.json()).payload.message).toBe(`Import ${theirs} not found`);
});
