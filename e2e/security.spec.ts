import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';

const baseUrl = () => process.env.E2E_BASE_URL!;
const shop = () => JSON.parse(process.env.E2E_SHOP!) as { shop_id: string; shop_secret: string };

async function logIn(page: Page) {
  await page.goto(`${baseUrl()}/admin/login`);
  await page.getByLabel('Email').fill(process.env.E2E_EMAIL!);
  await page.getByLabel('Password').fill(process.env.E2E_PASSWORD!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Shops' })).toBeVisible();
}

/** Serves one page on another origin of this machine (another port: the same site, another origin). */
async function otherOrigin(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('admin pages run under their nonce CSP with no violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to (execute|load)/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (event) => console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI}`)));
  const login = await page.goto(`${baseUrl()}/admin/login`);
  expect(login!.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  await logIn(page);
  await page.getByRole('link', { name: /E2E Outfitters/ }).click();
  await expect(page.getByRole('heading', { name: 'E2E Outfitters: overview' })).toBeVisible();
  // The pages with the most client code: the imports history and the listing preview.
  await page.getByRole('link', { name: 'Imports', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'E2E Outfitters: imports' })).toBeVisible();
  await page.getByRole('link', { name: 'Listing preview', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'E2E Outfitters: listing preview' })).toBeVisible();
  expect(violations).toEqual([]);
});

test('a page on another origin cannot change anything in the admin app, with the staff cookie sent along', async ({ page }) => {
  await logIn(page);
  const flags = `${baseUrl()}/admin/api/shops/${shop().shop_id}/flags`;
  // A form can send text/plain that reads as JSON; fetch can send it without a preflight.
  const attack = await otherOrigin(`<!doctype html><title>prize</title>
    <form id="form" method="POST" action="${flags}" enctype="text/plain">
      <input name='{"email":"csrf-form@example.test","event":"unsubscribed","x":"' value='"}'>
    </form>
    <script>
      fetch(${JSON.stringify(flags)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ email: 'csrf-fetch@example.test', event: 'unsubscribed' }) })
        .finally(() => document.getElementById('form').submit());
    </script>`);
  try {
    const answered = page.waitForResponse((response) => response.url() === flags && response.request().method() === 'POST' && response.request().resourceType() === 'document');
    await page.goto(attack.url);
    const response = await answered;
    expect(response.status()).toBe(403);
    await expect(page.locator('body')).toContainText('Cross-site request refused');
  } finally {
    await attack.close();
  }
  // Nothing was flagged; the admin's own page still can.
  const listed = await page.request.get(flags);
  expect(await listed.text()).not.toContain('csrf-');
  const own = await page.request.post(flags, { data: { email: 'own-page@example.test', event: 'unsubscribed' }, headers: { Origin: new URL(baseUrl()).origin } });
  expect(own.status()).toBe(200);
});
