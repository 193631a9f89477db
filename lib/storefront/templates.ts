import crypto from 'node:crypto';
import { Liquid, type Template } from 'liquidjs';

// A shop's `html` templates (Liquid, edited in the admin app). Every output is HTML-escaped unless
// a template says `| raw`; templates cannot read files or include others.

const engine = new Liquid({ outputEscape: 'escape', strictFilters: true, cache: false, relativeReference: false, root: [], partials: [], layouts: [] });
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

/** Throws with Liquid's message when the template does not parse (the admin app shows it). */
export function checkTemplate(source: string): void {
  engine.parse(source);
}

export function renderTemplate(source: string, data: Record<string, unknown>): string {
  return engine.renderSync(compiled(source), data) as string;
}

const KEPT_RENDERINGS = 64;
const KEPT_MS = 60_000;
const renderings = new Map<string, { html: string; at: number }>();

/**
 * The same, for data that `dataKey` (its JSON) stands for exactly: a storefront asking for the same
 * page again gets the html rendered before (up to 64 kept, each for at most a minute, so a
 * template that shows the time stays within a minute of it).
 */
export function renderTemplateKept(source: string, data: () => Record<string, unknown>, dataKey: string): string {
  // Kept by a digest: the template and the page's JSON can be large.
  const key = crypto.createHash('sha256').update(source).update('\u0000').update(dataKey).digest('base64');
  const now = Date.now();
  const kept = renderings.get(key);
  if (kept && now - kept.at < KEPT_MS) return kept.html;
  const html = renderTemplate(source, data());
  renderings.delete(key);
  renderings.set(key, { html, at: now });
  if (renderings.size > KEPT_RENDERINGS) renderings.delete(renderings.keys().next().value!);
  return html;
}
