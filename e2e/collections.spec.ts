import { expect, test } from '@playwright/test';
import { baseUrl, catalogShop as shop, checkPage, logIn, seedCatalog } from './support';

test.beforeAll(seedCatalog);

test('a merchandiser builds a collection from pickers, sees what it shows, edits it in JSON and deletes it', async ({ page }) => {
  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/collections`);
  await page.getByRole('link', { name: 'New collection' }).click();
  await expect(page.getByRole('heading', { name: 'Nordkap Outdoor: new collection' })).toBeVisible();
  await page.getByLabel('Name').fill('Red rain jackets');
  const group = page.getByTestId('group-1');
  await group.getByText('Categories:').click();
  await group.getByLabel('Find categories').fill('rain');
  await group.getByLabel('Outdoor › Jackets › Rain jackets').check();
  await group.getByLabel('Param').selectOption('Color');
  await group.getByText('Color values:').click();
  await group.getByLabel('red', { exact: true }).check();
  await expect(page.getByTestId('collection-count')).toHaveText('4 products');
  await group.getByLabel('At most').fill('3');
  await expect(page.getByTestId('collection-count')).toHaveText('3 products');
  await page.getByRole('button', { name: 'Create collection' }).click();
  await expect(page.getByText('Collection created.')).toBeVisible();
  await expect(page).toHaveURL(/\/collections\/\d+\?created=1$/);
  const id = Number(/collections\/(\d+)/.exec(page.url())![1]);
  const shown = async () => (await (await fetch(`${baseUrl()}/collection/${id}?shop_id=${shop().shop_id}`)).json()).products.length;
  expect(await shown()).toBe(3);
  await checkPage(page, 'collection');

  // The advanced view: a brand that matches nothing is named as such; a bad limit beside the form.
  await page.getByRole('tab', { name: 'JSON (advanced)' }).click();
  const json = page.getByLabel('Rules as JSON');
  await json.fill(JSON.stringify({ groups: [{ categories: ['jk-rain'], brands: ['Nope'], limit: 5 }, { categories: ['acc-caps'], discount: true }] }));
  await expect(page.getByTestId('collection-warnings')).toContainText('Group 1: no product in stock is of brand Nope');
  await expect(page.getByTestId('collection-count')).toHaveText('1 product');
  await json.fill(JSON.stringify({ groups: [{ categories: ['jk-rain'], limit: 0 }] }));
  await page.getByRole('button', { name: 'Save collection' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('rules.groups[0].limit must be at least 1');
  await json.fill(JSON.stringify({ groups: [{ categories: ['jk-rain'], limit: 5 }, { categories: ['acc-caps'], discount: true }] }));
  await page.getByRole('button', { name: 'Save collection' }).click();
  await expect(page.locator('form').getByRole('status')).toHaveText('Saved. Storefronts see the new rules within seconds.');
  await expect.poll(shown).toBe(6);
  await page.getByRole('tab', { name: 'Rule builder' }).click();
  await expect(page.getByTestId('group-2')).toBeVisible();

  await page.getByRole('link', { name: 'All collections' }).click();
  const row = page.getByTestId(`collection-${id}`);
  await expect(row).toContainText('6 products');
  await expect(row).toContainText('Rain jackets · up to 5');
  await expect(row).toContainText('or Caps · on sale');
  await checkPage(page, 'collections');

  await row.getByRole('link', { name: 'Red rain jackets' }).click();
  await page.getByRole('button', { name: 'Delete collection' }).click();
  await page.getByRole('dialog', { name: 'Delete “Red rain jackets”?' }).getByRole('button', { name: 'Delete collection' }).click();
  await expect(page).toHaveURL(/\/collections$/);
  await expect(page.getByTestId(`collection-${id}`)).toHaveCount(0);
  const gone = await fetch(`${baseUrl()}/collection/${id}?shop_id=${shop().shop_id}`);
  expect(gone.status).toBe(404);
});
