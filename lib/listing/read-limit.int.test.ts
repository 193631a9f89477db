import { expect, it } from 'vitest';
import { createTestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';

const fixture = serverWithDatabase({ READ_RATE_LIMIT_PER_MINUTE: '3' });

it('limits storefront reads per client address, apart from the shops write limit', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const read = () => fetch(`${fixture.server.url}/products?shop_id=${shop.shop_id}&did=d&sid=s`);
  expect((await read()).status).toBe(200);
  expect((await fetch(`${fixture.server.url}/init?shop_id=${shop.shop_id}`)).status).toBe(200);
  expect((await read()).status).toBe(200);
  const refused = await read();
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await refused.json()).payload.message).toContain('at most 3 reads a minute');
  // Imports are not counted by the read guard.
  const write = await fetch(`${fixture.server.url}/import/products`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...shop, items: [] }) });
  expect(write.status).toBe(204);
});
