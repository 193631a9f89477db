import { IMAGE_SIZES, imageKey, imageSigningKey, linkExpiry, signedImagePath } from '@/lib/images/image-urls';
import type { CategoryNode } from '@/lib/catalog/tree';
import type { PriceFormat } from './prices';
import { handleOf, withTracking } from './tracking';

// A product as listing and collection answers show it (spec 2.9, 2.10). Absent strings are "",
// absent numbers 0, so typed SDKs can read every field.

export type StoredProduct = { id: string; data: Record<string, unknown>; sales_rate: number };

export type CardContext = {
  format: PriceFormat;
  // The server key (image links are signed with a key derived from it) and the shop they are for.
  sealKey: Buffer;
  shopId: string;
  origin: string;
  tracking: Record<string, string>;
  categories: Map<string, CategoryNode>;
  // A category's link with the tracking parameters, and that link without its domain.
  categoryLink: (node: CategoryNode) => { url: string; url_handle: string };
  maxSalesRate: number;
};

export type Shown = { price: number; oldprice: number | null; discount: number; stockQuantity: number | null };

const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

// What a card makes of its product's links, kept with the product's stored row (lib/listing/
// stored-products.ts keeps a shop's shown rows): a storefront shows the same products again and
// again, and signing each picture (an HMAC) and adding the tracking parameters to each link (a URL
// parse) took ~6 % of the serving thread under the soak's load. A signed key names its shop and
// expiry, a link its parameters: a kept one is used only while those are the same.
type Made = { sealKey: Buffer; shopId: string; expires: number; signed: string; tracking: Record<string, string> | null; url: string };
const made = new WeakMap<object, Made>();

function madeFor(ctx: CardContext, product: StoredProduct): Made {
  let kept = made.get(product.data);
  if (!kept) made.set(product.data, (kept = { sealKey: ctx.sealKey, shopId: '', expires: 0, signed: '', tracking: null, url: '' }));
  return kept;
}

/** The signed key of the product's picture, as image links name it. */
function pictureKey(ctx: CardContext, product: StoredProduct, picture: string): string {
  const kept = madeFor(ctx, product);
  const expires = linkExpiry(Date.now());
  if (kept.expires !== expires || kept.shopId !== ctx.shopId || kept.sealKey !== ctx.sealKey) {
    Object.assign(kept, { sealKey: ctx.sealKey, shopId: ctx.shopId, expires, signed: imageKey(imageSigningKey(ctx.sealKey), { shopId: ctx.shopId, url: picture, expires }) });
  }
  return kept.signed;
}

/** The product's link with the answer's tracking parameters (kept for one parameters object: a listing's is a constant). */
function trackedUrl(ctx: CardContext, product: StoredProduct): string {
  const kept = madeFor(ctx, product);
  if (kept.tracking !== ctx.tracking) Object.assign(kept, { tracking: ctx.tracking, url: withTracking(text(product.data.url), ctx.tracking) });
  return kept.url;
}

/** The picture's resized links, every size, and the original. */
export function imageLinks(ctx: CardContext, product: StoredProduct, picture: string): Record<string, string> {
  const signed = pictureKey(ctx, product, picture);
  const links: Record<string, string> = {};
  for (const size of IMAGE_SIZES) links[size] = `${ctx.origin}${signedImagePath(size, signed)}`;
  links.original = picture;
  return links;
}

type CategoryDetail = { id: string; parent_id?: string; url: string; name: string; level: string; name_with_parent: string; url_handle: string };

// A category's detail, kept by its link (one object per category, index version and tracking:
// category-links.ts): a page of cards repeats the same few categories. Never changed once made.
const details = new WeakMap<object, CategoryDetail>();

/** The product's categories with their place in the tree (unknown ids are left out). */
export function categoryDetails(ctx: CardContext, ids: string[]): CategoryDetail[] {
  return ids.flatMap((id) => {
    const node = ctx.categories.get(id);
    if (!node) return [];
    const link = ctx.categoryLink(node);
    let detail = details.get(link);
    if (!detail) {
      const parent = node.parent !== null ? ctx.categories.get(node.parent) : undefined;
      detail = {
        id: node.id,
        ...(parent ? { parent_id: parent.id } : {}),
        url: link.url,
        name: node.name,
        level: String(node.path.length),
        name_with_parent: parent ? `${parent.name} > ${node.name}` : node.name,
        url_handle: link.url_handle,
      };
      details.set(link, detail);
    }
    return [detail];
  });
}

/**
 * What the default listing template shows of a card (templates.ts), each field as productCard
 * gives it: an answer without `extended` shows its cards only through that template, so the rest
 * of a card is not made for it.
 */
export function templateCard(ctx: CardContext, product: StoredProduct, shown: Shown) {
  const data = product.data;
  const picture = text(data.picture);
  const oldprice = shown.oldprice ?? 0;
  return {
    id: product.id,
    url: trackedUrl(ctx, product),
    name: text(data.name),
    image_url_resized: { 220: `${ctx.origin}${signedImagePath(220, pictureKey(ctx, product, picture))}` },
    price_formatted: ctx.format.whole(shown.price),
    oldprice: Math.trunc(oldprice),
    oldprice_formatted: oldprice ? ctx.format.whole(oldprice) : '',
  };
}

export function productCard(ctx: CardContext, product: StoredProduct, shown: Shown) {
  const data = product.data;
  const url = trackedUrl(ctx, product);
  const picture = text(data.picture);
  const categoryIds = Array.isArray(data.categories) ? data.categories.map(String) : [];
  const discount = Math.floor(shown.discount);
  const oldprice = shown.oldprice ?? 0;
  const salesRate = product.sales_rate;
  const params = Array.isArray(data.params) ? (data.params as { name: string; value: unknown[] }[]) : [];
  return {
    name: text(data.name),
    url,
    url_handle: handleOf(url),
    deeplink_android: text(data.deeplink_android),
    deeplink_ios: text(data.deeplink_ios),
    category_ids: categoryIds,
    barcode: text(data.barcode),
    vendor_code: text(data.vendor_code),
    brand: text(data.brand),
    model: text(data.model),
    description: text(data.description),
    sales_rate: Math.round(salesRate),
    relative_sales_rate: ctx.maxSalesRate > 0 ? Math.round((100 * salesRate) / ctx.maxSalesRate) : 0,
    picture,
    image_url: picture,
    image_url_handle: handleOf(picture),
    image_url_resized: imageLinks(ctx, product, picture),
    categories: categoryDetails(ctx, categoryIds),
    discount_percent: discount,
    discount,
    discount_formatted: `${discount}%`,
    price_formatted: ctx.format.whole(shown.price),
    price_full_formatted: ctx.format.full(shown.price),
    price: Math.trunc(shown.price),
    price_full: shown.price,
    oldprice_formatted: oldprice ? ctx.format.whole(oldprice) : '',
    oldprice_full_formatted: oldprice ? ctx.format.full(oldprice) : '',
    oldprice: Math.trunc(oldprice),
    oldprice_full: oldprice,
    currency: ctx.format.symbol,
    _id: product.id,
    id: product.id,
    group_id: text(data.group_id),
    stock_quantity: shown.stockQuantity ?? (typeof data.stock_quantity === 'number' ? data.stock_quantity : 0),
    params: params.map((param) => ({ key: param.name, values: param.value })),
  };
}
