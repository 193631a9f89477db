// What the measuring scripts (bin/bench/measure-*.ts) share: booting the runtime on a
// database kept by `npm run bench:listing -- --data-dir DIR` (embedded PostgreSQL, no jobs).
import path from 'node:path';
import type { Sql } from 'postgres';
import { boot } from '@/lib/runtime/boot';
import { readSettings } from '@/lib/runtime/settings';

/** The `--data-dir` option of every script that reads a kept database. */
export const DATA_DIR_OPTION = { 'data-dir': { type: 'string' } } as const;

/** The runtime on the kept database in `dataDir` (the `--data-dir` option); without it, stops with `usage`. */
export function bootKeptDatabase(dataDir: string | undefined, usage: string) {
  if (!dataDir) {
    console.error(`--data-dir is required\nusage: ${usage}`);
    process.exit(2);
  }
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
