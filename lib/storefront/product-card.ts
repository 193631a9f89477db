import { IMAGE_SIZES, imageSigningKey, linkExpiry, resizedImagePath } from '@/lib/images/image-urls';
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

// Signing costs an HMAC per size; the same pictures come back page after page.
const signedLinks = new Map<string, Record<string, string>>();

export function imageLinks(ctx: CardContext, picture: string): Record<string, string> {
  const expires = linkExpiry(Date.now());
  const cacheKey = `${ctx.origin}\u0000${ctx.shopId}\u0000${expires}\u0000${picture}`;
  const known = signedLinks.get(cacheKey);
  if (known) return { ...known };
  const links: Record<string, string> = {};
  const key = imageSigningKey(ctx.sealKey);
  for (const size of IMAGE_SIZES) links[String(size)] = `${ctx.origin}${resizedImagePath(key, size, { shopId: ctx.shopId, url: picture, expires })}`;
  links.original = picture;
  signedLinks.set(cacheKey, links);
  if (signedLinks.size > 5_000) signedLinks.delete(signedLinks.keys().next().value!);
  return { ...links };
}

/** The product's categories with their place in the tree (unknown ids are left out). */
export function categoryDetails(ctx: CardContext, ids: string[]) {
  return ids.flatMap((id) => {
    const node = ctx.categories.get(id);
    if (!node) return [];
    const parent = node.parent !== null ? ctx.categories.get(node.parent) : undefined;
    const link = ctx.categoryLink(node);
    return [
      {
        id: node.id,
        ...(parent ? { parent_id: parent.id } : {}),
        url: link.url,
        name: node.name,
        level: String(node.path.length),
        name_with_parent: parent ? `${parent.name} > ${node.name}` : node.name,
        url_handle: link.url_handle,
      },
    ];
  });
}

export function productCard(ctx: CardContext, product: StoredProduct, shown: Shown) {
  const data = product.data;
  const url = withTracking(text(data.url), ctx.tracking);
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
    image_url_resized: imageLinks(ctx, picture),
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
