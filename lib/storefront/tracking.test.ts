import { describe, expect, it } from 'vitest';
import { withTracking } from './tracking';

const listing = { recommended_by: 'listing' };

describe('withTracking', () => {
  it('adds its parameters with a parser, keeping the query as written and the fragment', () => {
    expect(withTracking('https://shop.example/p/1?a=1+2&b=%2B#top', listing)).toBe('https://shop.example/p/1?a=1+2&b=%2B&recommended_by=listing#top');
    expect(withTracking('https://shop.example/p/1?recommended_by=feed&x=1', { recommended_by: 'collection', recommended_code: 'c 1' })).toBe(
      'https://shop.example/p/1?x=1&recommended_by=collection&recommended_code=c%201',
    );
  });

  it('keeps a link without a scheme in its own form', () => {
    expect(withTracking('/p/1.html', listing)).toBe('/p/1.html?recommended_by=listing');
    expect(withTracking('p/1.html?a=1#x', listing)).toBe('p/1.html?a=1&recommended_by=listing#x');
    expect(withTracking('../p/1.html', listing)).toBe('../p/1.html?recommended_by=listing');
    expect(withTracking('//shop.example/p/1', listing)).toBe('//shop.example/p/1?recommended_by=listing');
  });
});
