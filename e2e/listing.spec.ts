import { expect, test } from '@playwright/test';
import { baseUrl, catalogShop as shop, importAndWait as importFor, logIn } from './support';

const importAndWait = (method: string, resource: string, fields: Record<string, unknown>) => importFor(method, resource, fields, 'done', shop());

test('a merchandiser previews the listing, narrows it by a facet and edits the template', async ({ page }) => {
  await importAndWait('PUT', 'categories', { categories: [{ id: 'jk', name: 'Jackets', parent: null }] });
  const item = (id: string, name: string, price: number, color: string) => ({
    id,
    name,
    price,
    categories: ['jk'],
    brand: 'Nordkap',
    url: `https://shop.example/p/${id}`,
    picture: `https://cdn.example/${id}.jpg`,
    params: [{ name: 'Color', value: [color] }],
  });
  await importAndWait('PUT', 'products', { items: [item('j1', 'Storm jacket', 120, 'red'), item('j2', 'Rain jacket', 80, 'blue'), item('j3', 'Down jacket', 200, 'red')] });

  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/listing`);
  await expect(page.getByRole('heading', { name: 'Nordkap Outdoor: listing preview' })).toBeVisible();
  const products = page.getByTestId('preview-products');
  await expect(products.locator('li')).toHaveCount(3);
  await expect(page.getByTestId('preview-summary')).toContainText('3 products');
  await expect(products).toContainText('€120');

  await page.getByLabel('Color: red').check();
  await expect(products.locator('li')).toHaveCount(2);
  await expect(page.getByTestId('preview-summary')).toContainText('2 products');
  // Disjunctive: blue keeps its count while red is selected.
  await expect(page.getByTestId('preview-facets')).toContainText('blue');
  await page.screenshot({ path: 'test-results/listing-preview.png', fullPage: true });

  await page.getByLabel(/Listing template/).fill('{% for p in products %}<b>{{ p.name }}</b>{% endfor');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.locator('form [role=alert]')).toContainText('listing_template is not a valid Liquid template');

  await page.getByLabel(/Listing template/).fill('{% for p in products %}<b class="mine">{{ p.name }}</b>{% endfor %}');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.locator('form [role=status]')).toContainText('Saved');
  await expect
    .poll(async () => (await (await fetch(`${baseUrl()}/products?shop_id=${shop().shop_id}&did=d&sid=s&sort_by=price&sort_dir=asc`)).json()).html)
    .toBe('<b class="mine">Rain jacket</b><b class="mine">Storm jacket</b><b class="mine">Down jacket</b>');
});

test('a merchandiser creates a collection from rules and sees what it shows', async ({ page }) => {
  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/collections`);
  await expect(page.getByRole('heading', { name: 'Nordkap Outdoor: collections' })).toBeVisible();
  await page.getByLabel('Name').fill('Red jackets');
  await page.getByLabel('Rules').fill('{"groups": [{"params": {"Color": ["red"]}, "limit": 5}]');
  await page.getByRole('button', { name: 'Create collection' }).click();
  await expect(page.locator('form [role=alert]')).toContainText('Rules are not JSON');
  await page.getByLabel('Rules').fill('{"groups": [{"params": {"Color": ["red"]}, "limit": 0}]}');
  await page.getByRole('button', { name: 'Create collection' }).click();
  await expect(page.getByTestId('collections-problem')).toContainText('limit must be at least 1');
  await page.getByLabel('Rules').fill('{"groups": [{"params": {"Color": ["red"]}, "limit": 5}]}');
  await page.getByRole('button', { name: 'Create collection' }).click();
  const card = page.locator('article', { hasText: 'Red jackets' });
  await expect(card.locator('li')).toHaveCount(2);
  await expect(card).toContainText('Storm jacket');
  await expect(card).toContainText('Down jacket');
  await page.screenshot({ path: 'test-results/collections.png', fullPage: true });
});
