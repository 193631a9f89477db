import type { Sql, TransactionSql } from 'postgres';
import { expectStates, noteCommitted } from '@/lib/imports/pipeline/known-states';
import { storeAvailability, storeProducts } from '@/lib/imports/pipeline/store';
import { bodyItems, SUMMARY_KEYS, type SentItems } from '@/lib/catalog/sent-items';
import { scanJson } from '@/lib/http/json-scan';
import type { ImportOutcome } from '@/lib/catalog/import-outcome';

/** A valid item with every field spec 2.4 requires, and `extra`. */
export const productItem = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Item ${id}`,
  price: 100,
  url: `https://s.example/${id}`,
  picture: `https://s.example/${id}.jpg`,
  categories: ['c1'],
  ...extra,
});

/** The items of a request body's text as the applier reads them: from its bytes, with their digests. */
export function sentItemsOf(text: string): SentItems {
  const body = Buffer.from(text);
  const { elements, elementMembers } = scanJson(body, SUMMARY_KEYS)!.get('items')!;
  return bodyItems(body, elements!, elementMembers);
}

/**
 * Product imports applied as the applier runs them, each in a transaction of its own on `sql()`
 * (read when called: the database of a test file starts in its beforeAll): once it commits, the
 * states this process knows follow (what storing it told of them is noted, whether it was stored
 * through the import pipeline or not).
 */
export function appliedImports(sql: () => Sql) {
  const committed = async (shopId: string, apply: (tx: TransactionSql) => Promise<ImportOutcome>): Promise<ImportOutcome> => {
    const outcome = await sql().begin(apply);
    expectStates(shopId, outcome);
    noteCommitted(shopId, outcome.version);
    return outcome;
  };
  const putText = (shopId: string, text: string, mode: 'put' | 'load' = 'put') => committed(shopId, (tx) => storeProducts(tx, shopId, mode, sentItemsOf(text)));
  return {
    committed,
    putText,
    put: (shopId: string, items: unknown[], mode: 'put' | 'load' = 'put') => putText(shopId, JSON.stringify({ shop_id: shopId, items }), mode),
    availability: (shopId: string, mode: 'patch' | 'delete', ids: unknown[]) => committed(shopId, (tx) => storeAvailability(tx, shopId, mode, ids)),
  };
}

/** A shop's stored location offers (`products.offers`), a row each, by product and location id. */
export function offerRows(sql: Sql, shopId: string) {
  return sql<{ product_id: string; location_id: string; price: number; oldprice: number | null; discount_percent: number; stock_quantity: number | null }[]>`
    select p.id as product_id, e->>0 as location_id, (e->>1)::float8 as price, (e->>2)::float8 as oldprice, (e->>3)::float8 as discount_percent, (e->>4)::int as stock_quantity
      from products p cross join jsonb_array_elements(p.offers::jsonb) e
     where p.shop_id = ${shopId} order by p.id, e->>0`;
}
