import { expect, it } from 'vitest';
import { serverWithDatabase } from '@/lib/testing/fixtures';

const fixture = serverWithDatabase();

it('keeps the admin app out of frames and its API answers out of caches', async () => {
  const page = await fetch(`${fixture.server.url}/admin/login`);
  expect(page.status).toBe(200);
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  const api = await fetch(`${fixture.server.url}/admin/api/session`, { method: 'DELETE' });
  expect(api.status).toBe(200);
  expect(api.headers.get('cache-control')).toBe('no-store');
  // The public API is not affected.
  const listing = await fetch(`${fixture.server.url}/products?shop_id=nope&did=d&sid=s`);
  expect(listing.headers.get('x-frame-options')).toBeNull();
});
