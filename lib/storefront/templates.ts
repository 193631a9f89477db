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
