import type { Sql } from 'postgres';
import { emptySet, DIM_BRAND, DIM_CATEGORY, docOf, FIRST_PARAM_DIM, type ShopIndex, IntList } from './indexing';
import { TimeSlice, yieldToEventLoop } from '@/lib/runtime/turns';
import { FIELD_WEIGHT, queryWords, searchWords, type SearchField } from './search-text';
import type { SearchHits } from './engine';

// `search_query`: a word index beside the listing index, built the first time a shop is searched
// (and kept with that index version). Name, model and the book fields are indexed per product;
// brands, categories and param values per facet value, whose products the listing index knows.

const DOC_FIELDS: SearchField[] = ['name', 'model', 'author', 'publisher', 'illustrator', 'editor', 'series'];

type WordTable = { words: string[]; offsets: Int32Array; entries: Int32Array };

export type SearchScratch = { score: Float64Array; hits: Uint8Array; best: Uint8Array; touched: Int32Array; cleared: Int32Array };

export type SearchIndex = {
  docWords: WordTable; // entries: doc * 8 + DOC_FIELDS position
  valueWords: WordTable; // entries: facet value number
};

async function table(map: Map<string, IntList>, slice: TimeSlice, turn: () => Promise<void>): Promise<WordTable> {
  const words = [...map.keys()].sort();
  await turn();
  const offsets = new Int32Array(words.length + 1);
  let total = 0;
  words.forEach((word, i) => {
    total += map.get(word)!.length;
    offsets[i + 1] = total;
  });
  const entries = new Int32Array(total);
  // Each word's entries ascending (by document, for the documents' table): a search then reads
  // and writes its per-document buffers front to back.
  for (let i = 0; i < words.length; i++) {
    if (slice.due()) await turn();
    entries.set(map.get(words[i])!.toArray().sort(), offsets[i]);
  }
  return { words, offsets, entries };
}

function addWords(map: Map<string, IntList>, text: unknown, entry: number): void {
  if (typeof text !== 'string' && typeof text !== 'number') return;
  for (const word of new Set(searchWords(String(text)))) {
    let list = map.get(word);
    if (!list) map.set(word, (list = new IntList(4)));
    list.push(entry);
  }
}

/** `turn`: how the build gives the event loop a turn between batches of rows (background builds give way to index builds). */
export async function buildSearchIndex(sql: Sql, index: ShopIndex, turn: () => Promise<void> = yieldToEventLoop): Promise<SearchIndex> {
  const docWords = new Map<string, IntList>();
  // A turn every few milliseconds (a batch of 5,000 rows held the event loop ~0.1 s).
  const slice = new TimeSlice(5, 64);
  const cursor = sql<{ id: string; name: string; model: string | null; book: string | null }[]>`
    select id, name, model, book from products where shop_id = ${index.shopId}`.cursor(5000);
  for await (const rows of cursor) {
    for (const row of rows) {
      if (slice.due()) await turn();
      const doc = docOf(index, row.id);
      if (doc === undefined) continue; // added after this index version
      addWords(docWords, row.name, doc * 8 + 0);
      addWords(docWords, row.model, doc * 8 + 1);
      if (row.book !== null) {
        const book = JSON.parse(row.book) as Record<string, unknown>;
        DOC_FIELDS.slice(2).forEach((field, i) => addWords(docWords, book[field], doc * 8 + 2 + i));
      }
    }
    await turn();
  }
  const valueWords = new Map<string, IntList>();
  for (let value = 0; value < index.valueKey.length; value++) {
    if (slice.due()) await turn();
    const dim = index.valueDim[value];
    if (dim === DIM_CATEGORY) addWords(valueWords, index.categories.get(index.valueKey[value])?.name ?? index.valueKey[value], value);
    else if (dim === DIM_BRAND || dim >= FIRST_PARAM_DIM) addWords(valueWords, index.valueLabel[value], value);
  }
  return { docWords: await table(docWords, slice, turn), valueWords: await table(valueWords, slice, turn) };
}

/** Positions of the words equal to `word` (or starting with it) in the sorted list. */
function wordRange(words: string[], word: string, prefix: boolean): [number, number] {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid] < word) lo = mid + 1;
    else hi = mid;
  }
  if (!prefix) return words[lo] === word ? [lo, lo + 1] : [lo, lo];
  let end = lo;
  while (end < words.length && words[end].startsWith(word)) end++;
  return [lo, end];
}

function valueField(index: ShopIndex, value: number): SearchField {
  const dim = index.valueDim[value];
  return dim === DIM_CATEGORY ? 'categories' : dim === DIM_BRAND ? 'brand' : 'params';
}

/**
 * Products with every word of the query in a field of the scope (the last word as a prefix), each
 * scored by the sum over words of the best field weight it was found in.
 */
export function searchDocuments(index: ShopIndex, search: SearchIndex, queryText: string, scope: SearchField[]): SearchHits {
  const words = queryWords(queryText);
  const inScope = new Set(scope);
  // Buffers of the catalog's size kept with the index (10 MB a search at a million products
  // otherwise): the scores returned are valid until the next search on this index, which is
  // enough for the synchronous query that asked. Only the documents a word touches are visited: a
  // document is a candidate for word i while it has matched every word before it (hits === i),
  // and each word's candidates found are listed, so nothing walks the whole catalog.
  let work = index.memo.searchScratch;
  if (!work) {
    work = { score: new Float64Array(index.n), hits: new Uint8Array(index.n), best: new Uint8Array(index.n), touched: new Int32Array(index.n), cleared: new Int32Array(0) };
    index.memo.searchScratch = work;
  }
  const { score, hits, best, touched } = work;
  // What the previous search left: every document it touched had matched its first word.
  for (const doc of work.cleared) {
    score[doc] = 0;
    hits[doc] = 0;
  }
  // Each document field's weight, 0 when out of scope.
  const docFieldWeight = Uint8Array.from(DOC_FIELDS, (field) => (inScope.has(field) ? FIELD_WEIGHT[field] : 0));
  let found = 0; // the candidates the current word found, in touched[0..found)
  words.forEach((word, i) => {
    found = 0;
    const prefix = i === words.length - 1;
    const [from, to] = wordRange(search.docWords.words, word, prefix);
    const { offsets, entries } = search.docWords;
    for (let e = offsets[from]; e < offsets[to]; e++) {
      const entry = entries[e];
      const weight = docFieldWeight[entry & 7];
      const doc = entry >>> 3;
      if (weight === 0 || hits[doc] !== i) continue; // out of scope, or missed an earlier word
      if (best[doc] === 0) touched[found++] = doc;
      if (weight > best[doc]) best[doc] = weight;
    }
    const [vFrom, vTo] = wordRange(search.valueWords.words, word, prefix);
    for (let w = vFrom; w < vTo; w++) {
      for (let e = search.valueWords.offsets[w]; e < search.valueWords.offsets[w + 1]; e++) {
        const value = search.valueWords.entries[e];
        const field = valueField(index, value);
        if (!inScope.has(field)) continue;
        const weight = FIELD_WEIGHT[field];
        for (let p = index.invOffsets[value]; p < index.invOffsets[value + 1]; p++) {
          const doc = index.invDocs[p];
          if (hits[doc] !== i) continue;
          if (best[doc] === 0) touched[found++] = doc;
          if (weight > best[doc]) best[doc] = weight;
        }
      }
    }
    for (let k = 0; k < found; k++) {
      const doc = touched[k];
      hits[doc] = i + 1;
      score[doc] += best[doc];
      best[doc] = 0;
    }
    // The first word's candidates include every document this search changes.
    if (i === 0) work!.cleared = touched.slice(0, found);
  });
  const set = emptySet(index.n);
  if (words.length > 0) {
    // Who matched every word is among the last word's candidates.
    for (let k = 0; k < found; k++) {
      const doc = touched[k];
      if (hits[doc] === words.length) set[doc >>> 5] |= 1 << (doc & 31);
    }
  }
  return { set, score };
}
