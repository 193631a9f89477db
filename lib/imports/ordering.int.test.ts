import { expect, it } from 'vitest';
import { sendImport, waitForImport, type ImportStatus } from '@/lib/testing/api';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';

const fixture = serverWithDatabase({ LIMITS: 'off' });

it('applies 200 interleaved imports from 5 shops in each shop’s arrival order', async () => {
  const shops: TestShop[] = [];
  for (let i = 0; i < 5; i++) shops.push(await createTestShop(fixture.database.ctx));

  // Import n of a shop renames the category "seq" to n and adds category "n<n>" under it.
  const sends = Array.from({ length: 200 }, (_, i) => ({ shop: shops[i % 5], n: Math.floor(i / 5) }));
  const sent: { shop: TestShop; n: number; importId: number }[] = [];
  const inFlight = 8;
  for (let i = 0; i < sends.length; i += inFlight) {
    const batch = sends.slice(i, i + inFlight);
    const results = await Promise.all(
      batch.map(async ({ shop, n }) => {
        const { response, importId } = await sendImport(fixture.server.url, 'PUT', 'categories', shop, {
          categories: [
            { id: 'seq', name: String(n) },
            { id: `n${n}`, name: `node ${n}`, parent: 'seq' },
          ],
        });
        expect(response.status).toBe(204);
        return { shop, n, importId: importId! };
      }),
    );
    sent.push(...results);
  }

  for (const shop of shops) {
    const mine = sent.filter((s) => s.shop === shop).sort((a, b) => a.importId - b.importId);
    expect(mine).toHaveLength(40);
    const records: ImportStatus[] = [];
    for (const { importId } of mine) records.push(await waitForImport(fixture.server.url, shop, importId));
    for (const record of records) expect(record.status).toBe('done');
    // Each import of a shop starts only after the one that arrived before it has finished.
    for (let i = 1; i < records.length; i++) {
      expect(Date.parse(records[i].started_at as string)).toBeGreaterThanOrEqual(Date.parse(records[i - 1].finished_at as string));
    }
    const [seq] = await fixture.database.ctx.sql<{ name: string }[]>`select name from categories where shop_id = ${shop.shop_id} and id = 'seq'`;
    // The last import to arrive wins.
    expect(seq.name).toBe(String(mine.at(-1)!.n));
    const [{ count }] = await fixture.database.ctx.sql<{ count: number }[]>`select count(*)::int as count from categories where shop_id = ${shop.shop_id}`;
    expect(count).toBe(41);
    const [{ version }] = await fixture.database.ctx.sql<{ version: number }[]>`select catalog_version as version from shops where id = ${shop.shop_id}`;
    expect(version).toBe(40);
  }
});
