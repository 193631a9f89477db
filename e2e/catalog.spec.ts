import { expect, test } from '@playwright/test';
import { baseUrl, catalogShop as shop, checkPage, logIn, seedCatalog } from './support';

test.beforeAll(seedCatalog);

test('the catalog browser finds products by id, name, category, brand and stock, and shows the trees with counts', async ({ page }) => {
  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/catalog`);
  await expect(page.getByTestId('products-total')).toHaveText('40 products');
  await expect(page.getByTestId('catalog-products').locator('li')).toHaveCount(40);
  await page.getByLabel('Id or name').fill('STORM');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('products-total')).toHaveText('1 product');
  await page.getByLabel('Id or name').fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('products-total')).toHaveText('40 products');
  await expect(page).not.toHaveURL(/q=/);
  await page.getByLabel('Category (and below)').selectOption({ label: 'Outdoor › Boots (10)' });
  await expect(page.getByTestId('products-total')).toHaveText('10 products');
  await page.getByLabel('Availability').selectOption('out_of_stock');
  await expect(page.getByTestId('products-total')).toHaveCount(0);
  await expect(page.getByText('No product matches')).toBeVisible();
  await page.getByLabel('Category (and below)').selectOption('');
  await expect(page.getByTestId('catalog-products')).toContainText('Cap 39');
  await expect(page.getByTestId('catalog-products')).toContainText('Out of stock');
  await page.getByLabel('Availability').selectOption('');
  await page.getByLabel('Brand').selectOption('Fjell');
  await expect(page.getByTestId('products-total')).toHaveText('4 products');
  await checkPage(page, 'catalog');

  await page.getByRole('button', { name: 'Categories' }).click();
  const tree = page.getByTestId('categories-tree');
  await expect(tree.getByTestId('count-jk')).toHaveText('24 / 24');
  await expect(tree.getByTestId('count-acc')).toHaveText('5 / 6');
  await checkPage(page, 'categories');
  await tree.getByRole('button', { name: 'Winter boots' }).click();
  await expect(page.getByTestId('products-total')).toHaveText('10 products');
  await page.getByRole('button', { name: 'Locations' }).click();
  await expect(page.getByTestId('locations-tree').getByTestId('count-osl')).toHaveText('8 / 8');
  await expect(page.getByTestId('locations-tree').getByTestId('count-no')).toHaveText('8 / 8');
});
