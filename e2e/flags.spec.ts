import { expect, test } from '@playwright/test';
import { baseUrl, checkPage, logIn, shop } from './support';

test('email flags can be seen, added, removed and exported', async ({ page }) => {
  const callback = await fetch(`${baseUrl()}/subscriptions/callback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...shop(), email: 'Reader@Example.com', event: 'unsubscribed' }),
  });
  expect(callback.status).toBe(200);

  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/flags`);
  await expect(page.getByRole('heading', { name: 'E2E Outfitters: email flags' })).toBeVisible();
  const reader = page.getByTestId('flags-reader@example.com');
  await expect(reader).toContainText('unsubscribed');

  await page.getByLabel('Email').fill('new@example.com');
  await page.getByLabel('Flag').selectOption('hard_bounced');
  await page.getByRole('button', { name: 'Add flag' }).click();
  await expect(page.getByTestId('flags-new@example.com')).toContainText('hard_bounced');

  await page.getByLabel('Email').fill('not an email');
  await page.getByRole('button', { name: 'Add flag' }).click();
  await expect(page.locator('form [role=alert]')).toHaveText('email must be a valid email address');

  const csv = await page.request.get(`${baseUrl()}/admin/api/shops/${shop().shop_id}/flags?format=csv`);
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const lines = (await csv.text()).trim().split('\r\n');
  expect(lines[0]).toBe('email,flags,updated_at');
  expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(',')).sort()).toEqual(['new@example.com,hard_bounced', 'reader@example.com,unsubscribed']);

  await page.getByRole('button', { name: 'Remove unsubscribed from reader@example.com' }).click();
  await expect(reader).toHaveCount(0);
  await checkPage(page, 'flags');
});
