import { expect, test } from '@playwright/test';
import { baseUrl, catalogShop as shop, checkPage, logIn, seedCatalog } from './support';

test.beforeAll(seedCatalog);

test('a merchandiser narrows the listing as a storefront would, and the state lives in the address', async ({ page }) => {
  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/listing`);
  await expect(page.getByRole('heading', { name: 'Nordkap Outdoor: listing preview' })).toBeVisible();
  const summary = page.getByTestId('preview-summary');
  const products = page.getByTestId('preview-products');
  await expect(summary).toContainText('39 products');
  await expect(summary).toContainText(/\d+ ms, \d+ engine (query|queries)/);
  await expect(products.locator('li')).toHaveCount(24);
  // The catalog's pictures sit on a host nothing reaches: a quiet placeholder, not a broken image.
  await expect(products.locator('li').first().getByTestId('no-picture')).toHaveText('No picture');
  await expect(page.getByTestId('range-Weight')).toContainText('500 – 1,640 g');
  await checkPage(page, 'listing-preview-all');

  // Categories are a tree of names; choosing one narrows the result and shows as a chip.
  const facets = page.getByTestId('preview-facets');
  await facets.getByRole('button', { name: 'Rain jackets', exact: true }).click();
  await expect(summary).toContainText('12 products');
  await expect(page.getByTestId('preview-chips')).toContainText('Category: Outdoor › Jackets › Rain jackets');
  await expect(page).toHaveURL(/categories=jk-rain/);

  // A ticked value stays listed, and can be unticked, when the result no longer has it.
  await page.getByLabel('Color: red', { exact: true }).click();
  await expect(page.getByLabel('Color: red', { exact: true })).toBeChecked();
  await expect(summary).toContainText('4 products');
  await facets.getByRole('button', { name: 'Caps', exact: true }).click();
  await expect(summary).toContainText('0 products');
  await expect(page.getByText('No product matches. Remove a filter above.')).toBeVisible();
  await page.getByLabel('Color: red', { exact: true }).click();
  // Unticked, and no longer in the result: gone from the list.
  await expect(page.getByLabel('Color: red', { exact: true })).toHaveCount(0);
  await expect(summary).toContainText('5 products');
  await page.reload();
  await expect(summary).toContainText('5 products');
  await expect(page.getByTestId('preview-chips')).toContainText('Category: Accessories › Caps');

  await page.getByRole('button', { name: 'Clear all' }).click();
  await expect(summary).toContainText('39 products');
  await expect(page.getByTestId('preview-chips')).toHaveCount(0);

  // Brands: eight, then the rest on demand; a price bar narrows to its range.
  const brands = page.getByTestId('facet-brands');
  await expect(brands.getByRole('checkbox')).toHaveCount(8);
  await brands.getByRole('button', { name: 'Show all 10' }).click();
  await expect(brands.getByRole('checkbox')).toHaveCount(10);
  await page.getByRole('button', { name: /^Prices .*: \d+ products?$/ }).first().click();
  await expect(page.getByTestId('preview-chips')).toContainText('Price:');

  // Relevance needs a search; a bad price is answered beside the price.
  await expect(page.getByRole('option', { name: 'Relevance to the search (search first)' })).toBeDisabled();
  await page.getByLabel('From').fill('cheap');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(facets.getByRole('alert')).toHaveText('price_min must be a number');
  await expect(products.locator('li').first()).toBeVisible();
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.getByLabel('Search', { exact: true }).fill('storm');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(summary).toContainText('1 product');
  await page.getByLabel('Sort by').selectOption({ label: 'Relevance to the search' });
  await expect(page).toHaveURL(/sort_by=relevance/);
  await expect(products).toContainText('Storm jacket');
  await checkPage(page, 'listing-preview');

  await page.getByRole('tab', { name: 'As curl' }).click();
  await expect(page.getByTestId('preview-code')).toContainText(`curl '${baseUrl()}/products?shop_id=${shop().shop_id}&did=DEVICE_ID&sid=SESSION_ID&extended=true&search_query=storm&sort_by=relevance&sort_dir=desc'`);
  await page.getByRole('tab', { name: 'As JSON' }).click();
  await expect(page.getByTestId('preview-code')).toContainText('"products_total": 1');
  await page.getByRole('tab', { name: 'Template HTML' }).click();
  await expect(page.getByTestId('preview-code')).toContainText('<ul class="vitrine-products">');

  await page.getByRole('tab', { name: 'Products' }).click();
  await products.getByRole('link', { name: 'Storm jacket' }).click();
  await expect(page.getByRole('heading', { name: 'Nordkap Outdoor: product p00' })).toBeVisible();
  await expect(page.getByTestId('product-categories')).toHaveText('Outdoor › Jackets › Down jackets');
  await expect(page.getByTestId('product-params')).toContainText('500 g');
  await expect(page.getByTestId('product-offers')).toContainText('Oslo: 35');
  await expect(page.getByTestId('product-changed')).toContainText(/by import #\d+/);
  await checkPage(page, 'product');
});

test('templates start from the built-in one, are previewed as drafts, saved as versions and restored', async ({ page }) => {
  const html = async (query = '') => (await (await fetch(`${baseUrl()}/products?shop_id=${shop().shop_id}&did=d&sid=s&sort_by=price&sort_dir=asc&limit=2${query}`)).json()).html;
  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/templates`);
  const editor = page.getByLabel('Listing template (Liquid)');
  await expect(editor).toHaveValue(/<ul class="vitrine-products">/);

  await editor.fill('{% for p in products %}<b>{{ p.name }}</b>{% endfor');
  await page.getByRole('button', { name: 'Preview the draft' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('The listing template is not valid Liquid');
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('main').getByRole('alert').first()).toContainText('not valid Liquid');

  await editor.fill('{% for p in products %}<b class="first">{{ p.name }}</b>{% endfor %}');
  await page.getByRole('button', { name: 'Preview the draft' }).click();
  await expect(page.frameLocator('iframe[title="Draft preview"]').locator('b.first').first()).toBeVisible();
  // Nothing is live before saving.
  expect(await html()).toContain('vitrine-products');
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect.poll(html).toBe('<b class="first">Storm jacket</b><b class="first">Jacket 1</b>');

  await page.getByLabel('Listing template (Liquid)').fill('{% for p in products %}<i>{{ p.name }}</i>{% endfor %}');
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect.poll(html).toBe('<i>Storm jacket</i><i>Jacket 1</i>');
  const versions = page.getByTestId('template-versions');
  await expect(versions.locator('> li')).toHaveCount(2);
  await checkPage(page, 'templates');
  await versions.getByRole('button', { name: /^Restore version \d+$/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'restored' })).toBeVisible();
  await expect.poll(html).toBe('<b class="first">Storm jacket</b><b class="first">Jacket 1</b>');

  await page.getByRole('button', { name: 'Use the built-in template' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Use the built-in template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'built-in template is back' })).toBeVisible();
  await expect.poll(html).toContain('<ul class="vitrine-products">');

  await page.getByRole('tab', { name: 'Collection template' }).click();
  const collectionEditor = page.getByLabel('Collection template (Liquid)');
  await expect(collectionEditor).toHaveValue(/vitrine-collection/);
  await collectionEditor.fill('<h3>{{ collection.name }}</h3>');
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const created = await page.request.post(`${baseUrl()}/admin/api/shops/${shop().shop_id}/collections`, { data: { name: 'Template check', rules: { groups: [{ limit: 1 }] } } });
  const { id } = await created.json();
  await expect.poll(async () => (await (await fetch(`${baseUrl()}/collection/${id}?shop_id=${shop().shop_id}&format=v2`)).json()).payload.product_collection.html).toBe('<h3>Template check</h3>');
  await page.request.delete(`${baseUrl()}/admin/api/shops/${shop().shop_id}/collections/${id}`);
});
