import type { TransactionSql } from 'postgres';
import { copyRows } from './copy-rows';

// A shop's facet dictionary (`facet_tokens`): every facet token its products have carried,
// numbered densely from 0. Products store their tokens' numbers (`products.facet_values`), so
// the listing index resolves each distinct token once per build (~5,000 in the benchmark's
// catalog) instead of hashing ~25 tokens per product.
//
// Each process keeps each shop's dictionary in memory. Only an import writes to it, and an
// import holds the shop's row lock (bumpCatalogVersion) from before it reads the dictionary
// until it commits, so a shop's imports number tokens one after the other. Numbers handed out
// by an import that then rolls back are in the memory copy but not in the table: the copy
// remembers the transaction that added them, and the next import reloads the dictionary unless
// PostgreSQL says that transaction committed. Another process's additions are read by number.

type Dictionary = { numbers: Map<string, number>; size: number; unconfirmedTxid: string | null };

const dictionaries = new Map<string, Dictionary>();

/** Turns a product's tokens into the text stored in `facet_values`; notes tokens seen first. */
export type FacetEncoder = { encode(tokens: readonly string[]): string; store(tx: TransactionSql): Promise<number> };

/**
 * The shop's dictionary as committed, for an import that holds the shop's row lock. Its
 * encoder numbers new tokens; `store` writes them in the import's transaction.
 */
export async function openFacetDictionary(tx: TransactionSql, shopId: string): Promise<FacetEncoder> {
  let dictionary = dictionaries.get(shopId);
  const [state] = await tx<{ txid: string; size: number; confirmed: boolean | null }[]>`
    select txid_current()::text as txid,
           coalesce((select max(number) + 1 from facet_tokens where shop_id = ${shopId}), 0)::int as size,
           txid_status(${dictionary?.unconfirmedTxid ?? null}::bigint) = 'committed' as confirmed`;
  if (dictionary && dictionary.unconfirmedTxid !== null && dictionary.unconfirmedTxid !== state.txid) {
    if (state.confirmed) dictionary.unconfirmedTxid = null;
    else dictionary = undefined; // rolled back (or too old to tell): read it again
  }
  if (dictionary && dictionary.size > state.size) dictionary = undefined;
  if (!dictionary) {
    dictionary = { numbers: new Map(), size: 0, unconfirmedTxid: null };
    dictionaries.set(shopId, dictionary);
  }
  if (dictionary.size < state.size) {
    const rows = await tx<{ number: number; token: string }[]>`
      select number, token from facet_tokens where shop_id = ${shopId} and number >= ${dictionary.size} order by number`;
    for (const row of rows) {
      if (row.number !== dictionary.size) throw new Error(`facet dictionary of shop ${shopId} has no token ${dictionary.size}`);
      dictionary.numbers.set(row.token, dictionary.size++);
    }
  }
  const entry = dictionary;
  const firstNew = entry.size;
  const added: string[] = [];
  return {
    encode(tokens) {
      let text = '';
      for (let i = 0; i < tokens.length; i++) {
        let number = entry.numbers.get(tokens[i]);
        if (number === undefined) {
          entry.unconfirmedTxid = state.txid;
          number = entry.size++;
          entry.numbers.set(tokens[i], number);
          added.push(tokens[i]);
        }
        text += i === 0 ? `${number}` : ` ${number}`;
      }
      return text;
    },
    async store(tx) {
      if (added.length === 0) return 0;
      await copyRows(tx, 'facet_tokens', ['shop_id', 'number', 'token'], added.map((token, i) => [shopId, firstNew + i, token]));
      return added.length;
    },
  };
}

/** An encoder that numbers tokens in memory only: for tools that build rows without a shop. */
export function memoryFacetEncoder(): FacetEncoder {
  const numbers = new Map<string, number>();
  return {
    encode: (tokens) =>
      tokens
        .map((token) => {
          let number = numbers.get(token);
          if (number === undefined) numbers.set(token, (number = numbers.size));
          return number;
        })
        .join(' '),
    store: async () => 0,
  };
}

/** The numbers in a `facet_values` text, in order. */
export function facetNumbers(text: string): number[] {
  return text === '' ? [] : text.split(' ').map(Number);
}
