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

  await page.getByLabel('Email', { exact: true }).fill('new@example.com');
  await page.getByLabel('Flag', { exact: true }).selectOption('hard_bounced');
  await page.getByRole('button', { name: 'Add flag' }).click();
  await expect(page.getByTestId('flags-new@example.com')).toContainText('hard_bounced');

  await page.getByLabel('Email', { exact: true }).fill('not an email');
  await page.getByRole('button', { name: 'Add flag' }).click();
  await expect(page.locator('form [role=alert]')).toHaveText('email must be a valid email address');
  await expect(page.getByRole('status').filter({ hasText: 'flagged' })).toHaveCount(0);

  const csv = await page.request.get(`${baseUrl()}/admin/api/shops/${shop().shop_id}/flags?format=csv`);
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const lines = (await csv.text()).trim().split('\r\n');
  expect(lines[0]).toBe('email,flags,updated_at');
  expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(',')).sort()).toEqual(['new@example.com,hard_bounced', 'reader@example.com,unsubscribed']);

  await expect(page.getByTestId('flag-totals')).toContainText('Flagged emails2');

  // Search and filter; the address keeps the filter.
  await page.getByLabel('Search by email').fill('READER');
  await expect(page.getByTestId('flags-table').locator('li')).toHaveCount(1);
  await page.getByLabel('Search by email').fill('');
  await page.getByLabel('With flag').selectOption('hard_bounced');
  await expect(page.getByTestId('flags-table').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('flags-new@example.com')).toBeVisible();
  await expect(page).toHaveURL(/flag=hard_bounced/);
  await page.getByLabel('With flag').selectOption('');

  // Bulk import from a CSV file: good lines applied, bad ones named.
  await page.getByText('Import flags from a CSV file').click();
  await page.getByLabel('CSV file').setInputFiles({ name: 'flags.csv', mimeType: 'text/csv', buffer: Buffer.from('email,flags\nbulk1@example.com,complained\nbulk2@example.com\nnot-an-email,unsubscribed\nbulk3@example.com,sleepy\n') });
  await page.getByLabel('Flag for lines without one').selectOption('blacklisted');
  await page.getByRole('button', { name: 'Import flags' }).click();
  await expect(page.getByText('2 emails flagged, 0 already had their flags, 2 lines skipped.')).toBeVisible();
  await expect(page.getByTestId('flags-import-rejected')).toContainText('Line 4: not-an-email is not an email address');
  await expect(page.getByTestId('flags-import-rejected')).toContainText('Line 5: sleepy is not a flag');
  await expect(page.getByTestId('flags-bulk2@example.com')).toContainText('blacklisted');
  await expect(page.getByTestId('flag-totals')).toContainText('Flagged emails4');

  // Removing a suppression flag asks first; cancelling keeps it.
  await page.getByRole('button', { name: 'Remove unsubscribed from reader@example.com' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove unsubscribed from reader@example.com?' });
  await expect(dialog).toContainText('asked not to get emails');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(reader).toContainText('unsubscribed');
  await checkPage(page, 'flags');
  await page.getByRole('button', { name: 'Remove unsubscribed from reader@example.com' }).click();
  await dialog.getByRole('button', { name: 'Remove flag' }).click();
  await expect(reader).toHaveCount(0);
});
