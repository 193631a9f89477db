// A product's facet values as the listing index reads them, one token each: computed once when
// the product is stored, so building an index does not parse params from JSON. Imports store
// each token's number in the shop's dictionary (`facet_values`, lib/catalog/facet-dictionary.ts);
// rows stored before the dictionary hold the tokens themselves (`facets`), and rows stored
// before that get the same tokens from their data at build time.

export const TOKEN_SEPARATOR = '\u001e';
export const PART_SEPARATOR = '\u001f';

/** How a param or feature value is keyed: JSON Booleans match "true"/"false" (CONTRACT §3). */
export function valueKeyOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return null;
}

/** Brands, merchants, colours and sizes compare case-insensitively. */
export function foldCase(value: string): string {
  return value.trim().toLowerCase();
}

export type ParamToken = { priority: number | null; name: string; value: string | null };

/** A `p` token's parts. */
export function parseParamToken(token: string): ParamToken {
  const first = token.indexOf(PART_SEPARATOR);
  const second = token.indexOf(PART_SEPARATOR, first + 1);
  const length = Number(token.slice(first + 1, second));
  const nameEnd = second + 1 + length;
  return {
    priority: first > 1 ? Number(token.slice(1, first)) : null,
    name: token.slice(second + 1, nameEnd),
    value: nameEnd < token.length ? token.slice(nameEnd + 1) : null,
  };
}

export type FacetSource = {
  categories: string[];
  brand?: string | null;
  brand_picture?: unknown;
  params?: unknown;
  fashion?: unknown;
};

/** A token's kind letter, for the kinds that are the letter and a text. */
export type SimpleKind = 'c' | 'b' | 'r' | 'o' | 's';

/** Receives a product's tokens in order, as their parts, without their text being made. */
export type FacetVisitor = {
  simple(kind: SimpleKind, text: string): void;
  // key null: the param has no usable value (the token is its head alone).
  param(priority: number | '', name: string, key: string | null): void;
};

/** A param token's text. */
export function paramToken(priority: number | '', name: string, key: string | null): string {
  const head = `p${priority}${PART_SEPARATOR}${name.length}${PART_SEPARATOR}${name}`;
  return key === null ? head : `${head}${PART_SEPARATOR}${key}`;
}

/**
 * The tokens, each a kind letter and its text: `c` a category id, `b` the brand (trimmed) and `r`
 * its picture, `o` a colour, `s` a size, `p` a param as `priority␟length of name␟name[␟value]` (a
 * param without a usable value still makes its dimension and priority known). Params with `searchable: false`
 * are left out: they are neither filters nor facets.
 */
export function visitFacetTokens(source: FacetSource, visit: FacetVisitor): void {
  for (const id of source.categories) visit.simple('c', id);
  if (typeof source.brand === 'string' && source.brand.trim() !== '') {
    visit.simple('b', source.brand.trim());
    if (typeof source.brand_picture === 'string' && source.brand_picture !== '') visit.simple('r', source.brand_picture);
  }
  const fashion = source.fashion as { sizes?: unknown; colors?: unknown } | null | undefined;
  if (fashion && typeof fashion === 'object') {
    if (Array.isArray(fashion.colors)) {
      for (const entry of fashion.colors) {
        const color = entry && typeof entry === 'object' ? (entry as { color?: unknown }).color : undefined;
        if (typeof color === 'string' && color.trim() !== '') visit.simple('o', color.trim());
      }
    }
    if (Array.isArray(fashion.sizes)) {
      for (const size of fashion.sizes) {
        const key = valueKeyOf(size);
        if (key !== null && key.trim() !== '') visit.simple('s', key.trim());
      }
    }
  }
  if (Array.isArray(source.params)) {
    for (const param of source.params as { name?: unknown; value?: unknown; priority?: unknown; searchable?: unknown }[]) {
      if (!param || typeof param !== 'object' || param.searchable === false || typeof param.name !== 'string' || param.name === '') continue;
      const priority = typeof param.priority === 'number' && Number.isFinite(param.priority) ? param.priority : '';
      const values = Array.isArray(param.value) ? param.value : [param.value];
      let valued = false;
      for (const raw of values) {
        const key = valueKeyOf(raw);
        if (key === null) continue;
        visit.param(priority, param.name, key);
        valued = true;
      }
      if (!valued) visit.param(priority, param.name, null);
    }
  }
}

/** The tokens' texts, in order. */
export function facetTokenList(source: FacetSource): string[] {
  const tokens: string[] = [];
  visitFacetTokens(source, {
    simple: (kind, text) => tokens.push(kind + text),
    param: (priority, name, key) => tokens.push(paramToken(priority, name, key)),
  });
  return tokens;
}

/**
 * The tokens as stored, or null when a text holds a separator or a NUL (which PostgreSQL text
 * cannot hold, so storing would change a length the token counts on): the builder then reads
 * `data`.
 */
export function facetTokens(source: FacetSource): string | null {
  const tokens = facetTokenList(source);
  for (const token of tokens) if (token.includes(TOKEN_SEPARATOR) || token.includes('\u0000')) return null;
  return tokens.join(TOKEN_SEPARATOR);
}
