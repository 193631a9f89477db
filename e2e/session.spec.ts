import { expect, test } from '@playwright/test';
import { baseUrl, checkPage, logIn, merchandiser, shop, submitSignIn } from './support';

test('signing in is required, refuses a wrong password, and returns to the page asked for', async ({ page }) => {
  const wanted = `/admin/shops/${shop().shop_id}/imports?status=failed`;
  await page.goto(`${baseUrl()}${wanted}`);
  await expect(page).toHaveURL(`${baseUrl()}/admin/login?next=${encodeURIComponent(wanted)}`);
  const api = await page.request.get(`${baseUrl()}/admin/api/shops/${shop().shop_id}/imports`);
  expect(api.status()).toBe(401);
  expect(await api.json()).toEqual({ status: 'error', payload: { message: 'Sign in first' } });

  await submitSignIn(page, { ...merchandiser(), password: 'not the password' }, false);
  await expect(page.locator('form [role=alert]')).toHaveText('Wrong email or password');
  await checkPage(page, 'sign-in');
  await logIn(page, merchandiser(), false);
  await expect(page).toHaveURL(`${baseUrl()}${wanted}`);
  await expect(page.getByLabel('Status')).toHaveValue('failed');
});

test('an expired session is handled one way: sign in again and come back to the same page', async ({ page, context }) => {
  await logIn(page);
  await page.goto(`${baseUrl()}/admin/shops/${shop().shop_id}/imports`);
  await expect(page.getByRole('heading', { name: 'E2E Outfitters: imports' })).toBeVisible();
  // The session ends while the page is open (signed out elsewhere, or past its days): the
  // browser still holds the cookie, and the page's next call finds out.
  const cookies = await context.cookies();
  const ended = await context.request.delete(`${baseUrl()}/admin/api/session`);
  expect(ended.status()).toBe(200);
  await context.addCookies(cookies);
  await page.getByLabel('Status').selectOption('done');
  await expect(page).toHaveURL(/\/admin\/login\?next=.*&expired=1$/);
  await expect(page.getByText('Your session has ended. Sign in again to go back where you were.')).toBeVisible();
  await logIn(page, merchandiser(), false);
  await expect(page).toHaveURL(new RegExp(`/admin/shops/${shop().shop_id}/imports\\?status=done$`));
});

test('unknown pages and admin-only pages answer inside the app, with 404 and 403', async ({ page }) => {
  await logIn(page);
  const missing = await page.goto(`${baseUrl()}/admin/no/such/page`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await checkPage(page, 'not-found');
  for (const path of ['/admin/staff', '/admin/outbox', '/admin/shops/new']) {
    const response = await page.goto(`${baseUrl()}${path}`);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  }
  await checkPage(page, 'forbidden');
  const api = await page.request.get(`${baseUrl()}/admin/api/staff`);
  expect(api.status()).toBe(403);
  expect(await api.json()).toEqual({ status: 'error', payload: { message: 'Only admins may do this' } });
  const noEndpoint = await page.request.get(`${baseUrl()}/admin/api/nothing/here`);
  expect(noEndpoint.status()).toBe(404);
  expect((await noEndpoint.json()).status).toBe('error');
});

test('signing out ends the session', async ({ page }) => {
  await logIn(page);
  await expect(page.getByTestId('staff-email')).toHaveText(merchandiser().email);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto(`${baseUrl()}/admin`);
  await expect(page).toHaveURL(/\/admin\/login$/);
});
