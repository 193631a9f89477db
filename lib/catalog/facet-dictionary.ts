import type { TransactionSql } from 'postgres';
import { type FacetSource, type FacetVisitor, paramToken, type SimpleKind, visitFacetTokens } from '@/lib/catalog/facet-tokens';
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

/**
 * Token → number, with lookups that need no token text for tokens seen before: by kind and
 * text, and for params by name, priority and value (making and hashing each token's text was
 * ~7 µs an item).
 */
export class TokenNumbers implements FacetVisitor {
  private numbers = new Map<string, number>();
  private simpleNumbers = new Map<string, Map<string, number>>();
  private params = new Map<string, Map<number | '', Map<string | null, number>>>();

  /** Hears each token numbered here for the first time (set by the import using the dictionary). */
  onAdded: (token: string) => void = () => undefined;

  // Numbers handed out: not numbers.size, as two rows can hold the same text (a lone surrogate
  // is stored as U+FFFD, so two tokens that differed here read back the same).
  size = 0;

  /** A token read from the table: its number is the next one. */
  load(token: string): void {
    this.numbers.set(token, this.size++);
  }

  /** The token's number, handed out now if it has none. */
  numberOf(token: string): number {
    let number = this.numbers.get(token);
    if (number === undefined) {
      number = this.size++;
      this.numbers.set(token, number);
      this.onAdded(token);
    }
    return number;
  }

  // The product being encoded: its numbers so far, and whether every token can be stored.
  private list: number[] = [];
  private storable = true;

  /** The product's tokens' numbers in order, or null when one holds a NUL (PostgreSQL text cannot). */
  encodeList(source: FacetSource): number[] | null {
    this.startList();
    // This object is the visitor: no closures made per product (under tsx each closure made also
    // costs a call naming it, ~1 µs).
    visitFacetTokens(source, this);
    return this.finishList();
  }

  /** Starts a product's list, for a caller visiting its tokens itself (simple and param calls follow). */
  startList(): void {
    this.list = [];
    this.storable = true;
  }

  /** The list started: encodeList's answer. */
  finishList(): number[] | null {
    return this.storable ? this.list : null;
  }

  /** The product's tokens as the text stored in `facet_values`, or null (encodeList). */
  encode(source: FacetSource): string | null {
    return this.encodeList(source)?.join(' ') ?? null;
  }

  simple(kind: SimpleKind, value: string): void {
    if (!this.storable || value.includes('\u0000')) return void (this.storable = false);
    let byText = this.simpleNumbers.get(kind);
    if (!byText) this.simpleNumbers.set(kind, (byText = new Map()));
    let number = byText.get(value);
    if (number === undefined) byText.set(value, (number = this.numberOf(kind + value)));
    this.put(number);
  }

  param(priority: number | '', name: string, key: string | null): void {
    if (!this.storable || name.includes('\u0000') || (key !== null && key.includes('\u0000'))) return void (this.storable = false);
    this.put(this.paramNumber(priority, name, key));
  }

  /** A param token's number (its name and key without a NUL), handed out now if it has none. */
  paramNumber(priority: number | '', name: string, key: string | null): number {
    let byPriority = this.params.get(name);
    if (!byPriority) this.params.set(name, (byPriority = new Map()));
    let byKey = byPriority.get(priority);
    if (!byKey) byPriority.set(priority, (byKey = new Map()));
    let number = byKey.get(key);
    if (number === undefined) byKey.set(key, (number = this.numberOf(paramToken(priority, name, key))));
    return number;
  }

  /** Adds a number to the product's list (after startList). */
  put(number: number): void {
    this.list.push(number);
  }
}

type Dictionary = { tokens: TokenNumbers; unconfirmedTxid: string | null };

const dictionaries = new Map<string, Dictionary>();

/**
 * Turns a product's facet tokens into the text stored in `facet_values`, or a token's text into
 * its number; notes tokens seen first.
 */
export type FacetEncoder = { encode(source: FacetSource): string | null; numberOf(token: string): number; store(tx: TransactionSql): Promise<number> };

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
  if (dictionary && dictionary.tokens.size > state.size) dictionary = undefined;
  const added: string[] = [];
  if (!dictionary) {
    dictionary = { tokens: new TokenNumbers(), unconfirmedTxid: null };
    dictionaries.set(shopId, dictionary);
  }
  const { tokens } = dictionary;
  if (tokens.size < state.size) {
    const rows = await tx<{ number: number; token: string }[]>`
      select number, token from facet_tokens where shop_id = ${shopId} and number >= ${tokens.size} order by number`;
    for (const row of rows) {
      if (row.number !== tokens.size) throw new Error(`facet dictionary of shop ${shopId} has no token ${tokens.size}`);
      tokens.load(row.token);
    }
  }
  const entry = dictionary;
  const firstNew = tokens.size;
  // Numbers handed out from here belong to this transaction until it is known to have committed.
  tokens.onAdded = (token) => {
    entry.unconfirmedTxid = state.txid;
    added.push(token);
  };
  return {
    encode: (source) => tokens.encode(source),
    numberOf: (token) => tokens.numberOf(token),
    async store(tx) {
      if (added.length === 0) return 0;
      await copyRows(tx, 'facet_tokens', ['shop_id', 'number', 'token'], added.map((token, i) => [shopId, firstNew + i, token]));
      return added.length;
    },
  };
}

/** An encoder that numbers tokens in memory only: for tools that build rows without a shop. */
export function memoryFacetEncoder(): FacetEncoder {
  const tokens = new TokenNumbers();
  return { encode: (source) => tokens.encode(source), numberOf: (token) => tokens.numberOf(token), store: async () => 0 };
}
