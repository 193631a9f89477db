import crypto from 'node:crypto';
import { Liquid, type Template } from 'liquidjs';
import { log } from '@/lib/runtime/log';

// A shop's `html` templates (Liquid, edited in the admin app). Every output is HTML-escaped unless
// a template says `| raw`; templates cannot read files or include others.
//
// A template runs on the thread that answers every shop's requests, so it is held to limits: a
// render stops after 500 ms or once it has made 10 million elements (a `(1..1000000000)` range
// would otherwise fill the heap and end the process), and a template is at most a million
// characters. A template is tried on sample data before it is saved; one that still fails when a
// storefront reads it gives way to the default template, and the failure goes to the log.

export const TEMPLATE_LIMITS = { parseLimit: 1_000_000, renderLimit: 500, memoryLimit: 10_000_000 };

const engine = new Liquid({
  outputEscape: 'escape',
  strictFilters: true,
  cache: false,
  relativeReference: false,
  root: [],
  partials: [],
  layouts: [],
  ...TEMPLATE_LIMITS,
});
const parsed = new Map<string, Template[]>();

export const DEFAULT_LISTING_TEMPLATE = `<ul class="vitrine-products">{% for product in products %}
<li class="vitrine-product" data-id="{{ product.id }}"><a href="{{ product.url }}"><img src="{{ product.image_url_resized['220'] }}" alt="{{ product.name }}" width="220" height="220" loading="lazy"><span class="vitrine-product-name">{{ product.name }}</span><span class="vitrine-product-price">{{ product.price_formatted }}</span>{% if product.oldprice > 0 %}<s class="vitrine-product-oldprice">{{ product.oldprice_formatted }}</s>{% endif %}</a></li>{% endfor %}
</ul>`;

export const DEFAULT_COLLECTION_TEMPLATE = `<div class="vitrine-collection"><h2>{{ collection.name }}</h2><ul>{% for product in products %}
<li data-id="{{ product.id }}"><a href="{{ product.url }}"><img src="{{ product.image_url_resized['220'] }}" alt="{{ product.name }}" width="220" height="220" loading="lazy"><span>{{ product.name }}</span><span>{{ product.price_formatted }}</span></a></li>{% endfor %}
</ul></div>`;

function compiled(source: string): Template[] {
  let templates = parsed.get(source);
  if (!templates) {
    templates = engine.parse(source);
    parsed.set(source, templates);
    if (parsed.size > 1000) parsed.delete(parsed.keys().next().value!);
  }
  return templates;
}

const SAMPLE_PRODUCT = {
  id: 'sample-1',
  group_id: '',
  name: 'Sample product',
  url: 'https://shop.example/p/1',
  url_handle: '/p/1',
  picture: 'https://shop.example/p/1.jpg',
  image_url: 'https://shop.example/p/1.jpg',
  image_url_resized: { '220': 'https://shop.example/images/220/x', original: 'https://shop.example/p/1.jpg' },
  price: 10,
  price_full: 10.5,
  price_formatted: '$10.50',
  oldprice: 12,
  oldprice_full: 12,
  oldprice_formatted: '$12.00',
  discount_percent: 12.5,
  currency: 'USD',
  brand: 'Brand',
  category_ids: ['1'],
  categories: [{ id: '1', name: 'Category', url: 'https://shop.example/c/1' }],
  params: [{ name: 'Color', value: ['red'] }],
  sales_rate: 1,
  rating: 4,
};

/** Sample data of each kind of template: what a storefront's answer gives it. */
export const SAMPLE_DATA = {
  listing: [
    { products: [SAMPLE_PRODUCT, { ...SAMPLE_PRODUCT, id: 'sample-2', oldprice: 0 }], products_total: 2, shop: { name: 'Sample shop' } },
    { products: [], products_total: 0, shop: { name: 'Sample shop' } },
  ],
  collection: [{ collection: { id: 1, name: 'Sample collection' }, products: [SAMPLE_PRODUCT], shop: { name: 'Sample shop' } }],
};

/**
 * Throws with Liquid's message when the template does not parse, or fails or exceeds a limit when
 * rendered with sample data (the admin app shows the message).
 */
export function checkTemplate(source: string, samples: readonly Record<string, unknown>[]): void {
  const templates = engine.parse(source);
  for (const data of samples) engine.renderSync(templates, data);
}

export function renderTemplate(source: string, data: Record<string, unknown>): string {
  const native = NATIVE_DEFAULTS.get(source);
  return native ? native(data) : renderLiquid(source, data);
}

/** The template rendered by Liquid itself (the default ones too: what their native renderers must equal). */
export function renderLiquid(source: string, data: Record<string, unknown>): string {
  return engine.renderSync(compiled(source), data) as string;
}

// The default templates, written out as functions that give exactly what Liquid gives for them
// (templates.test.ts compares both on generated cards): most shops keep the default, and Liquid
// took 6 % of the serving thread under a storefront's load, more than the engine's query.

const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

/** An output as Liquid writes it: nil is empty, arrays are joined, the rest is String(). */
function liquidText(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : Array.isArray(value) ? value.map(liquidText).join('') : String(value);
}

/** An output through Liquid's `escape` (every output of these templates is). */
const escaped = (value: unknown) => liquidText(value).replace(/[&<>"']/g, (char) => ESCAPED[char]);

type Card = { id?: unknown; url?: unknown; image_url_resized?: Record<string, unknown>; name?: unknown; price_formatted?: unknown; oldprice?: unknown; oldprice_formatted?: unknown };

function cardsOf(data: Record<string, unknown>): Card[] {
  return Array.isArray(data.products) ? (data.products as Card[]) : [];
}

function defaultListing(data: Record<string, unknown>): string {
  let html = '<ul class="vitrine-products">';
  for (const card of cardsOf(data)) {
    html += `\n<li class="vitrine-product" data-id="${escaped(card.id)}"><a href="${escaped(card.url)}"><img src="${escaped(card.image_url_resized?.['220'])}" alt="${escaped(card.name)}" width="220" height="220" loading="lazy"><span class="vitrine-product-name">${escaped(card.name)}</span><span class="vitrine-product-price">${escaped(card.price_formatted)}</span>`;
    if ((card.oldprice as number) > 0) html += `<s class="vitrine-product-oldprice">${escaped(card.oldprice_formatted)}</s>`;
    html += '</a></li>';
  }
  return `${html}\n</ul>`;
}

function defaultCollection(data: Record<string, unknown>): string {
  const collection = (data.collection ?? {}) as { name?: unknown };
  let html = `<div class="vitrine-collection"><h2>${escaped(collection.name)}</h2><ul>`;
  for (const card of cardsOf(data)) {
    html += `\n<li data-id="${escaped(card.id)}"><a href="${escaped(card.url)}"><img src="${escaped(card.image_url_resized?.['220'])}" alt="${escaped(card.name)}" width="220" height="220" loading="lazy"><span>${escaped(card.name)}</span><span>${escaped(card.price_formatted)}</span></a></li>`;
  }
  return `${html}\n</ul></div>`;
}

const NATIVE_DEFAULTS = new Map<string, (data: Record<string, unknown>) => string>([
  [DEFAULT_LISTING_TEMPLATE, defaultListing],
  [DEFAULT_COLLECTION_TEMPLATE, defaultCollection],
]);

/** Whether `source` is the default listing template, which reads only a card's TemplateCard fields. */
export function isDefaultListingTemplate(source: string): boolean {
  return source === DEFAULT_LISTING_TEMPLATE;
}

// One log line per failing template a minute: a storefront may read it many times a second.
const loggedFailures = new Map<string, number>();

/** The template's html, or the default template's when it fails at a storefront's read. */
export function renderTemplateOr(source: string, fallback: string, data: Record<string, unknown>): string {
  if (source === fallback) return renderTemplate(source, data);
  try {
    return renderTemplate(source, data);
  } catch (error) {
    const digest = crypto.createHash('sha256').update(source).digest('base64url').slice(0, 12);
    const now = Date.now();
    if (now - (loggedFailures.get(digest) ?? 0) > 60_000) {
      loggedFailures.set(digest, now);
      if (loggedFailures.size > 1000) loggedFailures.delete(loggedFailures.keys().next().value!);
      log(`a shop's template (${digest}) failed, the default one was used: ${(error as Error).message}`, undefined, 'warn');
    }
    return renderTemplate(fallback, data);
  }
}

const KEPT_RENDERINGS = 64;
const KEPT_MS = 60_000;
const renderings = new Map<string, { html: string; at: number }>();

/**
 * The same, for data that `dataKey` (its JSON) stands for exactly: a storefront asking for the same
 * page again gets the html rendered before (up to 64 kept, each for at most a minute, so a
 * template that shows the time stays within a minute of it).
 */
export function renderTemplateKept(source: string, fallback: string, data: () => Record<string, unknown>, dataKey: () => string): string {
  // A default template renders faster than the page's JSON hashes.
  if (NATIVE_DEFAULTS.has(source)) return renderTemplate(source, data());
  // Kept by a digest: the template and the page's JSON can be large.
  const key = crypto.createHash('sha256').update(source).update('\u0000').update(dataKey()).digest('base64');
  const now = Date.now();
  const kept = renderings.get(key);
  if (kept && now - kept.at < KEPT_MS) return kept.html;
  const html = renderTemplateOr(source, fallback, data());
  renderings.delete(key);
  renderings.set(key, { html, at: now });
  if (renderings.size > KEPT_RENDERINGS) renderings.delete(renderings.keys().next().value!);
  return html;
}
