import crypto from 'node:crypto';

// CONTRACT §8: the sizes image_url_resized offers.
export const IMAGE_SIZES = [120, 140, 160, 180, 200, 220, 310, 520] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

function signature(key: Buffer, url: string): string {
  return crypto.createHmac('sha256', key).update(`images:${url}`).digest('base64url').slice(0, 22);
}

/**
 * `<signature>.<base64url of the original URL>`: only links the service made itself resolve,
 * so /images cannot be used as an open proxy.
 */
export function imageKey(key: Buffer, url: string): string {
  return `${signature(key, url)}.${Buffer.from(url, 'utf8').toString('base64url')}`;
}

/** The original URL a key names, or null when the key was not made by this service. */
export function originalOf(key: Buffer, imageKeyValue: string): string | null {
  const dot = imageKeyValue.indexOf('.');
  if (dot <= 0) return null;
  const url = Buffer.from(imageKeyValue.slice(dot + 1), 'base64url').toString('utf8');
  const given = Buffer.from(imageKeyValue.slice(0, dot));
  const expected = Buffer.from(signature(key, url));
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? url : null;
}

/** The service path of one resized image: `/images/<size>/<key>`. */
export function resizedImagePath(key: Buffer, size: ImageSize, url: string): string {
  return `/images/${size}/${imageKey(key, url)}`;
}
