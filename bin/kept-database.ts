// What the measuring scripts (bin/measure-*.ts) share: their options, and booting the runtime on a
// database kept by `npm run bench:listing -- --data-dir DIR` (embedded PostgreSQL, no jobs).
import path from 'node:path';
import type { Sql } from 'postgres';
import { boot } from '@/lib/runtime/boot';
import { readSettings } from '@/lib/runtime/settings';

/** The value after `name` on the command line, or undefined. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** The runtime on `--data-dir DIR`; without it, fails with `usage`. */
export function bootKeptDatabase(usage: string) {
  const dataDir = option('--data-dir');
  if (!dataDir) throw new Error(`usage: ${usage}`);
  return boot({ maintenance: false, settings: { ...readSettings(), dataDir: path.resolve(dataDir), databaseUrl: undefined } });
}

/** The shop with the most products (or shop `wanted`), and how many it has. */
export async function largestShop(sql: Sql, wanted?: string): Promise<{ id: string; count: number }> {
  const [shop] = await sql<{ id: string; count: number }[]>`
    select shop_id as id, count(*)::int as count from products where ${wanted ?? null}::text is null or shop_id = ${wanted ?? null}
     group by shop_id order by 2 desc limit 1`;
  if (!shop) throw new Error(wanted ? `shop ${wanted} has no products` : 'the database holds no products');
  return shop;
}
