import { expect, test, type Browser } from '@playwright/test';
import { admin, baseUrl, checkPage, importAndWait, logIn, submitSignIn } from './support';

async function signInElsewhere(browser: Browser, who: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, who);
  return { context, page };
}

test('an admin creates a shop, copies its secret once, edits its settings and replaces the secret', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await logIn(page, admin());
  await page.getByRole('link', { name: 'New shop' }).click();
  await page.getByLabel('Name').fill('Fjord Supplies');
  await page.getByLabel('Currency').fill('usd');
  await page.getByRole('button', { name: 'Create shop' }).click();
  await expect(page.getByTestId('secret-once')).toContainText('shown only this once');
  const credentials = { shop_id: (await page.getByTestId('shop-id').textContent())!, shop_secret: (await page.getByTestId('shop-secret').textContent())! };
  await page.getByRole('button', { name: 'Copy shop secret' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'copied' })).toHaveText('Shop secret copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(credentials.shop_secret);
  await checkPage(page, 'new-shop');

  // The credentials work: a catalog arrives, one item of it refused.
  await importAndWait('PUT', 'categories', { categories: [{ id: 'a', name: 'Axes', parent: null }, { id: 'b', name: 'Boots', parent: null }, { id: 'b1', name: 'Winter boots', parent: 'b' }] }, 'done', credentials);
  const item = (id: string, price: number) => ({ id, name: `Item ${id}`, price, url: `https://f.example/${id}`, picture: `https://f.example/${id}.jpg`, categories: ['b1'] });
  const failed = await importAndWait('PUT', 'products', { items: [item('p1', 50), item('p2', 0)] }, 'failed', credentials);

  await page.getByRole('link', { name: 'Open the shop' }).click();
  await expect(page.getByRole('heading', { name: 'Fjord Supplies: overview' })).toBeVisible();
  const stats = page.getByTestId('overview-stats');
  await expect(stats).toContainText('Products in stock1');
  await expect(stats).toContainText('Categories3');
  await expect(page.getByTestId('recent-failures')).toContainText(`#${failed} Products: add or update`);
  await expect(page.getByRole('table', { name: 'Imports per day' })).toBeAttached();
  await checkPage(page, 'overview');
  await page.getByRole('link', { name: `#${failed} Products: add or update` }).click();
  await expect(page.getByRole('heading', { name: `Fjord Supplies: import #${failed}` })).toBeVisible();

  await page.getByRole('navigation', { name: 'Shop sections' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Name').fill('Fjord Supplies Ltd');
  await page.getByLabel('Currency').fill('XYZ');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('currency must be an ISO 4217 currency code such as USD or EUR');
  await page.getByLabel('Currency').fill('GBP');
  await page.getByLabel(/Full products/).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Fjord Supplies Ltd: settings' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Currency')).toHaveValue('GBP');
  await expect(page.getByLabel(/Full products/)).toBeChecked();

  await page.getByRole('button', { name: 'Replace the secret…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replace the shop secret?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Replace the secret…' }).click();
  await dialog.getByRole('button', { name: 'Replace the secret' }).click();
  const rotated = (await page.getByTestId('shop-secret').textContent())!;
  expect(rotated).not.toBe(credentials.shop_secret);
  await checkPage(page, 'shop-settings');
  const old = await fetch(`${baseUrl()}/import/categories`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...credentials, categories: [] }) });
  expect(old.status).toBe(400);
  await importAndWait('PUT', 'categories', { categories: [] }, 'done', { ...credentials, shop_secret: rotated });
});

test('an admin adds a staff member for some shops, resets their password and removes them; the outbox shows the emails', async ({ page, browser }) => {
  await logIn(page, admin());
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' }).click();
  await expect(page.getByRole('heading', { name: 'Staff', exact: true })).toBeVisible();
  await expect(page.getByTestId('staff-admin@e2e.test')).toContainText('You');
  const add = page.locator('form', { hasText: 'Add a staff member' });
  await add.getByLabel('Email', { exact: true }).fill('helper@e2e.test');
  await add.getByLabel('First password').fill('helper password');
  await add.getByRole('button', { name: 'Add staff member' }).click();
  await expect(add.getByRole('alert')).toHaveText('Choose at least one shop, or make the account an admin of every shop');
  await add.getByLabel('Other Shop').check();
  await add.getByRole('button', { name: 'Add staff member' }).click();
  await expect(add.getByRole('status')).toContainText('Account created');
  const row = page.getByTestId('staff-helper@e2e.test');
  await expect(row).toContainText('Other Shop');
  await checkPage(page, 'staff');

  const helper = await signInElsewhere(browser, { email: 'helper@e2e.test', password: 'helper password' });
  await expect(helper.page.getByRole('link', { name: /Other Shop/ })).toBeVisible();
  await expect(helper.page.getByRole('link', { name: /E2E Outfitters/ })).toHaveCount(0);
  await expect(helper.page.getByRole('link', { name: 'Staff' })).toHaveCount(0);

  await row.getByRole('button', { name: 'Edit helper@e2e.test' }).click();
  await row.getByLabel('New password').fill('second password');
  await row.getByRole('button', { name: 'Reset password' }).click();
  await expect(row.getByRole('status')).toHaveText('Password set; their sessions ended.');
  await helper.page.reload();
  await expect(helper.page).toHaveURL(/\/admin\/login\?expired=1$/);

  await row.getByLabel('E2E Outfitters').check();
  await row.getByRole('button', { name: 'Save access' }).click();
  await expect(page.getByTestId('staff-helper@e2e.test')).toContainText('E2E Outfitters, Other Shop');

  await page.getByTestId('staff-helper@e2e.test').getByRole('button', { name: 'Remove helper@e2e.test' }).click();
  await page.getByRole('dialog', { name: 'Remove helper@e2e.test?' }).getByRole('button', { name: 'Remove account' }).click();
  await expect(page.getByTestId('staff-helper@e2e.test')).toHaveCount(0);
  await submitSignIn(helper.page, { email: 'helper@e2e.test', password: 'second password' }, false);
  await expect(helper.page.locator('form [role=alert]')).toHaveText('Wrong email or password');
  await helper.context.close();

  await page.getByRole('link', { name: 'Email outbox' }).click();
  const outbox = page.getByTestId('outbox');
  const first = outbox.getByRole('button', { name: /\[Vitrine\] Import #\d+ \(products.put\) of Fjord Supplies failed/ }).first();
  await first.click();
  await expect(page.frameLocator('iframe[title^="Email: "]').first().getByText('price must be greater than 0')).toBeVisible();
  await checkPage(page, 'outbox');
});
