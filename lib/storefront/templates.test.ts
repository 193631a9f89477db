import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTemplate, DEFAULT_COLLECTION_TEMPLATE, DEFAULT_LISTING_TEMPLATE, renderLiquid, renderTemplate, renderTemplateOr, SAMPLE_DATA } from './templates';

describe('checkTemplate', () => {
  it('takes the default templates and a template that uses the sample fields', () => {
    expect(() => checkTemplate(DEFAULT_LISTING_TEMPLATE, SAMPLE_DATA.listing)).not.toThrow();
    expect(() => checkTemplate(DEFAULT_COLLECTION_TEMPLATE, SAMPLE_DATA.collection)).not.toThrow();
    expect(() => checkTemplate('{% for p in products %}{{ p.name | upcase }} {{ p.price_formatted }}{% endfor %}', SAMPLE_DATA.listing)).not.toThrow();
  });

  it('refuses a range that would fill the memory, at once', () => {
    const started = performance.now();
    expect(() => checkTemplate('{% for i in (1..1000000000) %}{% endfor %}', SAMPLE_DATA.listing)).toThrow('memory alloc limit exceeded');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('stops a render that runs past its time', () => {
    // 9 million turns of an empty loop: within the element limit, past 500 ms (about 1.9 s without the limit).
    const started = performance.now();
    expect(() => checkTemplate('{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}', SAMPLE_DATA.listing)).toThrow('template render limit exceeded');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses a template that parses but cannot render: an include, a layout', () => {
    expect(() => checkTemplate("{% include 'card' %}", SAMPLE_DATA.listing)).toThrow(/Failed to lookup/);
    expect(() => checkTemplate("{% layout 'page' %}", SAMPLE_DATA.collection)).toThrow(/Failed to lookup/);
    expect(() => checkTemplate('{% for p in products %}', SAMPLE_DATA.listing)).toThrow(/not closed/);
  });
});

describe('renderTemplateOr', () => {
  it('renders the shop’s template, and the default one when the shop’s fails', () => {
    const data = SAMPLE_DATA.listing[0];
    expect(renderTemplateOr('{{ products_total }} <b>{{ shop.name }}</b>', DEFAULT_LISTING_TEMPLATE, data)).toBe('2 <b>Sample shop</b>');
    const fallback = renderTemplateOr("{% if products_total > 1 %}{% include 'x' %}{% endif %}", DEFAULT_LISTING_TEMPLATE, data);
    expect(fallback).toContain('<ul class="vitrine-products">');
    expect(fallback).toContain('data-id="sample-1"');
  });
});

describe('the default templates, rendered natively', () => {
  // Strings with everything escaping touches, and numbers around the `oldprice > 0` test.
  const text = fc.oneof(fc.string(), fc.constantFrom('', `<a href="x">'&amp;'</a>`, 'Ω & "quoted"', '&#39;'), fc.constant(undefined));
  const card = fc.record({
    id: text,
    url: text,
    name: text,
    price_formatted: text,
    oldprice_formatted: text,
    oldprice: fc.oneof(fc.integer({ min: -5, max: 1_000_000 }), fc.constantFrom(0, 0.5, -0.5)),
    image_url_resized: fc.option(fc.record({ '220': text, original: text }), { nil: undefined }),
  });

  it('give exactly what Liquid gives for them', () => {
    fc.assert(
      fc.property(fc.array(card, { maxLength: 30 }), text, fc.integer({ min: 0, max: 10_000 }), (products, name, total) => {
        const listing = { products, products_total: total, shop: { name } };
        expect(renderTemplate(DEFAULT_LISTING_TEMPLATE, listing)).toBe(renderLiquid(DEFAULT_LISTING_TEMPLATE, listing));
        const collection = { collection: { id: 1, name }, products, shop: { name } };
        expect(renderTemplate(DEFAULT_COLLECTION_TEMPLATE, collection)).toBe(renderLiquid(DEFAULT_COLLECTION_TEMPLATE, collection));
      }),
      { numRuns: 300 },
    );
    for (const data of [...SAMPLE_DATA.listing, ...SAMPLE_DATA.collection]) {
      expect(renderTemplate(DEFAULT_LISTING_TEMPLATE, data)).toBe(renderLiquid(DEFAULT_LISTING_TEMPLATE, data));
      expect(renderTemplate(DEFAULT_COLLECTION_TEMPLATE, data)).toBe(renderLiquid(DEFAULT_COLLECTION_TEMPLATE, data));
    }
  });
});
