// How `search_query` reads text: case- and accent-insensitive words. Shared by the index, which
// stores the words of each searchable field, and by the query, which splits what a shopper typed.

export const SEARCH_FIELDS = ['name', 'brand', 'model', 'categories', 'params', 'author', 'publisher', 'illustrator', 'editor', 'series'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export const SEARCH_SCOPES: Record<string, readonly SearchField[]> = {
  general: ['name', 'brand', 'model', 'categories', 'params'],
  books: ['author', 'publisher', 'illustrator', 'editor', 'series'],
};

// sort_by=relevance: a word found in the name weighs most; each word counts its best field.
export const FIELD_WEIGHT: Record<SearchField, number> = {
  name: 8,
  brand: 4,
  model: 4,
  categories: 2,
  params: 1,
  author: 4,
  publisher: 2,
  illustrator: 2,
  editor: 2,
  series: 2,
};

const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

// Lower-casing writes Σ at a word's end as ς: one letter, written σ everywhere (else "ΟΔΟΣ",
// typed as a prefix, missed "οδοστρωμα").
const FINAL_SIGMA = /ς/g;

/** The words of a text, lower-cased and without accents ("Crème brûlée" → crème → creme, brulee). */
export function searchWords(text: string): string[] {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase().replace(FINAL_SIGMA, 'σ').match(WORD) ?? [];
}

export const MAX_QUERY_WORDS = 32;

/** The words of a search query: each once, in order, at most MAX_QUERY_WORDS (the rest ignored). */
export function queryWords(text: string): string[] {
  return [...new Set(searchWords(text))].slice(0, MAX_QUERY_WORDS);
}
