import type { CategoryNode } from '@/lib/catalog/tree';
import { handleOf, withTracking } from '@/lib/storefront/tracking';
import type { ShopIndex } from './indexing';

export type CategoryLink = { url: string; url_handle: string };

/**
 * A category's link with the answer's tracking parameters, and that link without its domain: made
 * once per index version and tracking (a page of cards repeats the same categories, and a link is
 * the same object each time, so what is made of it can be kept by it).
 */
export function categoryLinks(index: ShopIndex, tracking: Record<string, string>): (node: CategoryNode) => CategoryLink {
  const key = JSON.stringify(tracking);
  let links = index.memo.links.get(key);
  if (!links) {
    links = new Map();
    index.memo.links.set(key, links);
  }
  const known = links;
  return (node) => {
    let link = known.get(node.id);
    if (!link) {
      const url = node.url ? withTracking(node.url, tracking) : '';
      link = { url, url_handle: url ? handleOf(url) : '' };
      known.set(node.id, link);
    }
    return link;
  };
}
