import { AppError } from '@/lib/http/errors';
import { linkExpiry } from '@/lib/images/image-urls';
import { idOf } from '@/lib/listing/indexing';
import { categoryLinks } from '@/lib/listing/category-links';
import { withReadSlot } from '@/lib/listing/in-flight';
import { keptUtf8 } from '@/lib/listing/index-memo';
import { indexFor, setIndexBudget } from '@/lib/listing/index-store';
import { storedProducts } from '@/lib/listing/stored-products';
import type { AppContext } from '@/lib/runtime/context';
import { storefrontShop } from '@/lib/shops/storefront-shop';
import { productCard, type CardContext } from '@/lib/storefront/product-card';
import { priceFormat } from '@/lib/storefront/prices';
import { DEFAULT_COLLECTION_TEMPLATE, renderTemplateOr } from '@/lib/storefront/templates';
import { storefrontCollection } from './manage-collections';
import { selectCollection } from './select-products';

// GET /collection/:id (spec 4.6, 2.9; CONTRACT §6).

export type CollectionRequest = { id: string; params: Map<string, string>; headers?: Headers; origin: string };

/** The answer's JSON, UTF-8. */
export function readCollection(ctx: AppContext, request: CollectionRequest): Promise<Uint8Array<ArrayBuffer>> {
  return withReadSlot(ctx.settings.listing, () => collectionAnswer(ctx, request));
}

// Answers kept per index version: storefronts ask for a shop's few collections again and again.
// Made each time (up to 48 cards, ~100 KB of JSON), collections took ~8 % of the serving thread
// in the soak's profile for ~15 % of its reads.
const KEPT_ANSWERS = 16;

async function collectionAnswer(ctx: AppContext, request: CollectionRequest): Promise<Uint8Array<ArrayBuffer>> {
  const shopId = request.params.get('shop_id')?.trim();
  if (!shopId) throw new AppError('VALIDATION', 'shop_id is required');
  if (!/^[1-9]\d{0,9}$/.test(request.id) || Number(request.id) > 2147483647) throw new AppError('VALIDATION', `Collection id must be a positive integer, got "${request.id}"`);
  const id = Number(request.id);
  const shop = await storefrontShop(ctx.sql, shopId);
  const collection = await storefrontCollection(ctx, shop.id, id);
  setIndexBudget(ctx.settings.listing.memoryBytes);
  const index = await indexFor(ctx.sql, shop.id);
  const location = request.params.get('location')?.trim() || null;
  const origin = ctx.settings.publicUrl ?? request.origin;
  const v2 = request.params.get('format')?.trim().toLowerCase() === 'v2' || request.headers?.get('accept-version')?.trim() === '2';
  // Everything the answer is made of besides the index version: the collection as read, the
  // shop's settings, the request's location, origin and format, and the picture links' window.
  const key = JSON.stringify([id, collection.name, collection.rules, shop.name, shop.currency, shop.currencySymbol, shop.thousandsSeparator, shop.decimalSeparator, shop.decimals, shop.collectionTemplate, location, origin, v2, linkExpiry(Date.now())]);
  const kept = (index.memo.collectionAnswers ??= new Map());
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key); // most recently used last
    kept.set(key, hit);
    return hit;
  }
  const picks = selectCollection(index, collection.rules, location);

  const ids = picks.map((pick) => idOf(index, pick.doc));
  const stored = await storedProducts(ctx.sql, index, ids);
  const tracking = { recommended_by: 'collection', recommended_code: String(id) };
  const card: CardContext = {
    format: priceFormat(shop),
    sealKey: ctx.sealKey,
    shopId: shop.id,
    origin,
    tracking,
    categories: index.categories,
    categoryLink: categoryLinks(index, tracking),
    maxSalesRate: index.maxSalesRate,
  };
  const products = picks.flatMap((pick, i) => {
    const product = stored.get(ids[i]);
    if (!product) return []; // removed since this index version
    const full = productCard(card, product, { price: pick.price, oldprice: Number.isNaN(pick.oldprice) ? null : pick.oldprice, discount: pick.discount, stockQuantity: null });
    return [
      {
        name: full.name,
        url: full.url,
        description: full.description,
        category_ids: full.category_ids,
        categories: full.category_ids,
        brand: full.brand,
        sales_rate: full.sales_rate,
        relative_sales_rate: full.relative_sales_rate,
        picture: full.picture,
        // Spec 2.9: rounded to whole units (the listing shows the integer part, CONTRACT §4).
        price_formatted: card.format.whole(Math.round(full.price_full)),
        price_full_formatted: full.price_full_formatted,
        price: Math.round(full.price_full),
        price_full: full.price_full,
        oldprice: full.oldprice,
        oldprice_full: full.oldprice_full,
        discount_percent: full.discount_percent,
        image_url: full.image_url,
        image_url_handle: full.image_url_handle,
        image_url_resized: full.image_url_resized,
        url_handle: full.url_handle,
        currency: full.currency,
        _id: full._id,
        id: full.id,
        group_id: String(pick.group),
      },
    ];
  });
  let answer: unknown = { products };
  if (v2) {
    const html = renderTemplateOr(shop.collectionTemplate ?? DEFAULT_COLLECTION_TEMPLATE, DEFAULT_COLLECTION_TEMPLATE, { collection: { id, name: collection.name }, products, shop: { name: shop.name } });
    answer = { status: 'success', payload: { product_collection: { id, name: collection.name, html, products } } };
  }
  const bytes = keptUtf8(JSON.stringify(answer));
  kept.set(key, bytes);
  if (kept.size > KEPT_ANSWERS) kept.delete(kept.keys().next().value!);
  return bytes;
}
