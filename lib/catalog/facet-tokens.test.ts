import { describe, expect, it } from 'vitest';
import { facetTokenList, facetTokens, parseParamToken, PART_SEPARATOR, TOKEN_SEPARATOR } from './facet-tokens';

describe('facet tokens', () => {
  it('lists categories, brand and picture, colours, sizes and params in that order', () => {
    const tokens = facetTokenList({
      categories: ['10', '11'],
      brand: ' Acme ',
      brand_picture: 'https://cdn.example/acme.png',
      fashion: { colors: [{ color: ' Red ' }, { color: '' }, 'x'], sizes: ['M', 42, true, null, ' '] },
      params: [
        { name: 'Size', value: [42, '43'], priority: 2 },
        { name: 'Hidden', value: 'x', searchable: false },
        { name: '', value: 'x' },
        { name: 'Flag', value: true },
        { name: 'Empty', value: [null, {}] },
      ],
    });
    expect(tokens).toEqual([
      'c10',
      'c11',
      'bAcme',
      'rhttps://cdn.example/acme.png',
      'oRed',
      'sM',
      's42',
      'strue',
      `p2${PART_SEPARATOR}4${PART_SEPARATOR}Size${PART_SEPARATOR}42`,
      `p2${PART_SEPARATOR}4${PART_SEPARATOR}Size${PART_SEPARATOR}43`,
      `p${PART_SEPARATOR}4${PART_SEPARATOR}Flag${PART_SEPARATOR}true`,
      `p${PART_SEPARATOR}5${PART_SEPARATOR}Empty`, // no usable value: the dimension is still known
    ]);
  });

  it('parses a param token back, whatever its name and value hold', () => {
    const name = `Mat${PART_SEPARATOR}erial`;
    const value = `a${PART_SEPARATOR}b`;
    const [withValue] = facetTokenList({ categories: [], params: [{ name, value, priority: 1.5 }] });
    expect(parseParamToken(withValue)).toEqual({ priority: 1.5, name, value });
    const [withoutValue] = facetTokenList({ categories: [], params: [{ name, value: null }] });
    expect(parseParamToken(withoutValue)).toEqual({ priority: null, name, value: null });
  });

  it('stores null when a text holds the token separator or a NUL, and an empty string for no values', () => {
    expect(facetTokens({ categories: ['a'], params: [{ name: 'n', value: `x${TOKEN_SEPARATOR}y` }] })).toBeNull();
    expect(facetTokens({ categories: [`a${TOKEN_SEPARATOR}`] })).toBeNull();
    expect(facetTokens({ categories: ['a'], params: [{ name: 'Si\u0000ze', value: 'M' }] })).toBeNull(); // not storable as is

    expect(facetTokens({ categories: [] })).toBe('');
    expect(facetTokens({ categories: ['a', 'b'] })).toBe(`ca${TOKEN_SEPARATOR}cb`);
  });
});
