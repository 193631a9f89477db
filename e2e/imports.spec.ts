import { expect, test, type Page } from '@playwright/test';

const baseUrl = () => process.env.E2E_BASE_URL!;
const shop = () => JSON.parse(process.env.E2E_SHOP!) as { shop_id: string; shop_secret: string };

async function logIn(page: Page, password = process.env.E2E_PASSWORD!) {
  await page.goto(`${baseUrl()}/admin/login`);
  await page.getByLabel('Email').fill(process.env.E2E_EMAIL!);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function sendImport(method: string, resource: string, fields: Record<string, unknown>): Promise<number> {
  const response = await fetch(`${baseUrl()}/import/${resource}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...shop(), ...fields }),
  });
  expect(response.status).toBe(204);
  return Number(response.headers.get('x-import-id'));
}

test('the admin app requires a login', async ({ page }) => {
  await page.goto(`${baseUrl()}/admin`);
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/imports`);
  await expect(page).toHaveURL(/\/admin\/login$/);
  const api = await page.request.get(`${baseUrl()}/admin/api/shops/${shop().shop_id}/imports`);
  expect(api.status()).toBe(401);
});

test('a wrong password is refused with a message', async ({ page }) => {
  await logIn(page, 'not the password');
  await expect(page.locator('form [role=alert]')).toHaveText('Wrong email or password');
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test('an import sent through the API appears and turns done, a failed one shows why', async ({ page }) => {
  await logIn(page);
  await expect(page.getByRole('heading', { name: 'Shops' })).toBeVisible();
  await page.getByRole('link', { name: /E2E Outfitters/ }).click();
  await expect(page.getByRole('heading', { name: 'E2E Outfitters: imports' })).toBeVisible();

  const categories = Array.from({ length: 2000 }, (_, i) => ({ id: `c${i}`, name: `Category ${i}`, parent: i ? `c${Math.floor((i - 1) / 3)}` : null }));
  const done = await sendImport('POST', 'categories', { categories });
  const row = page.getByTestId(`import-${done}`);
  // No reload: the page refreshes itself.
  await expect(row).toBeVisible();
  await expect(row.getByTestId('import-status')).toHaveText('done');
  await expect(row).toContainText('categories.replace');
  await expect(row).toContainText('2000');

  const failed = await sendImport('PUT', 'locations', { locations: [{ id: 'msk', name: 'Moscow', parent: null }, { id: 'spb', name: 'St Petersburg' }] });
  const failedRow = page.getByTestId(`import-${failed}`);
  await expect(failedRow.getByTestId('import-status')).toHaveText('failed');
  await failedRow.click();
  await expect(page.getByText('1 of 2 items were rejected; the other 1 were applied')).toBeVisible();
  await expect(page.getByText('parent is required (null for a root)')).toBeVisible();
  await page.screenshot({ path: 'test-results/imports-page.png', fullPage: true });

  // Newest first.
  const ids = await page.getByTestId(/^import-\d+$/).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')));
  expect(ids.slice(0, 2)).toEqual([`import-${failed}`, `import-${done}`]);
});

test('signing out ends the session', async ({ page }) => {
  await logIn(page);
  await expect(page.getByTestId('staff-email')).toHaveText(process.env.E2E_EMAIL!);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto(`${baseUrl()}/admin`);
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test('email flags can be seen, added, removed and exported', async ({ page }) => {
  const callback = await fetch(`${baseUrl()}/subscriptions/callback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...shop(), email: 'Reader@Example.com', event: 'unsubscribed' }),
  });
  expect(callback.status).toBe(200);

  await logIn(page);
  await expect(page.getByRole('heading', { name: 'Shops' })).toBeVisible();
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
  await page.screenshot({ path: 'test-results/flags-page.png', fullPage: true });
});
