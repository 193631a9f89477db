import crypto from 'node:crypto';

// CONTRACT §8: the sizes image_url_resized offers.
export const IMAGE_SIZES = [120, 140, 160, 180, 200, 220, 310, 520] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

/** What a link names: a shop's original picture, until `expires` (Unix seconds). */
export type ImageLink = { shopId: string; url: string; expires: number };

// Links made in one 30-day window are the same link (browsers and CDNs keep them), and each
// lives 30 to 60 days: a listing answer's links outlive any page that shows them.
const LINK_WINDOW_SECONDS = 30 * 86_400;

/** The expiry of links made at `nowMs`: the end of the window after the current one. */
export function linkExpiry(nowMs: number): number {
  return (Math.floor(nowMs / 1000 / LINK_WINDOW_SECONDS) + 2) * LINK_WINDOW_SECONDS;
}

const derived = new WeakMap<Buffer, Buffer>();

/**
 * The key image links are signed with: derived from the server key by HKDF under a label of its
 * own, so it is not the key that seals shop secrets, and knowing one tells nothing of the other.
 */
export function imageSigningKey(serverKey: Buffer): Buffer {
  let key = derived.get(serverKey);
  if (!key) {
    key = Buffer.from(crypto.hkdfSync('sha256', serverKey, Buffer.alloc(0), 'vitrine image links v2', 32));
    derived.set(serverKey, key);
  }
  return key;
}

function signature(key: Buffer, { shopId, url, expires }: ImageLink): string {
  return crypto.createHmac('sha256', key).update(`${shopId}\n${expires}\n${url}`).digest('base64url').slice(0, 22);
}

/**
 * `<signature>.<shop id>.<expiry>.<base64url of the original URL>`: only links the service made
 * resolve (it is no open proxy), for the shop they were made for, until they expire.
 */
export function imageKey(key: Buffer, link: ImageLink): string {
  return `${signature(key, link)}.${link.shopId}.${link.expires}.${Buffer.from(link.url, 'utf8').toString('base64url')}`;
}

/** What a key names, 'expired' past its expiry, or null when the key was not made by this service. */
export function readImageKey(key: Buffer, value: string, nowMs: number): ImageLink | 'expired' | null {
  const parts = value.split('.');
  if (parts.length !== 4 || !/^[0-9a-f]{1,64}$/.test(parts[1]) || !/^\d{1,12}$/.test(parts[2])) return null;
  const link = { shopId: parts[1], expires: Number(parts[2]), url: Buffer.from(parts[3], 'base64url').toString('utf8') };
  const given = Buffer.from(parts[0]);
  const expected = Buffer.from(signature(key, link));
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return link.expires * 1000 <= nowMs ? 'expired' : link;
}

/** The service path of one resized image: `/images/<size>/<key>`. */
export function resizedImagePath(key: Buffer, size: ImageSize, link: ImageLink): string {
  return signedImagePath(size, imageKey(key, link));
}

/** The same, for a key imageKey already made. */
export function signedImagePath(size: ImageSize, signed: string): string {
  return `/images/${size}/${signed}`;
}

/**
 * The paths of every size, signed once: the signature names the picture, not the size (a card
 * shows all eight, and signing each took 7 % of the serving thread under a storefront's load).
 */
export function resizedImagePaths(key: Buffer, link: ImageLink): Record<ImageSize, string> {
  const signed = imageKey(key, link);
  const paths = {} as Record<ImageSize, string>;
  for (const size of IMAGE_SIZES) paths[size] = signedImagePath(size, signed);
  return paths;
}
