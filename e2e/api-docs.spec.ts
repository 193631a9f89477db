import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { baseUrl } from './support';

const screenshots = path.resolve(import.meta.dirname, 'screenshots');

// /docs renders the API reference from /openapi.json with nothing fetched from elsewhere.
test('the API reference renders offline, on a desktop and on a phone', async ({ page }) => {
  const outside: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(baseUrl()) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  await page.goto(`${baseUrl()}/docs`);
  await expect(page.getByRole('heading', { name: /Vitrine catalog API/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Product listing with filters, facets, sorting and paging (spec 4.7)' })).toBeAttached();
  await expect(page.getByRole('heading', { name: 'Mark an email with a system flag (spec 4.8)' })).toBeAttached();
  fs.mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, 'api-docs-desktop.png') });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: /Vitrine catalog API/ })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(screenshots, 'api-docs-phone.png') });
  expect(outside).toEqual([]);
});
