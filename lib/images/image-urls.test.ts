import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { imageKey, imageSigningKey, linkExpiry, readImageKey, resizedImagePath } from './image-urls';

describe('signed image keys', () => {
  const serverKey = crypto.randomBytes(32);
  const key = imageSigningKey(serverKey);
  const now = Date.UTC(2026, 10, 28);
  const link = { shopId: '0123456789abcdef0123456789abcdef', url: 'https://cdn.example/img/1.jpg?v=2&size=big#x', expires: linkExpiry(now) };

  it('gives back the shop and original for a key it made, until it expires', () => {
    expect(readImageKey(key, imageKey(key, link), now)).toEqual(link);
    expect(resizedImagePath(key, 310, link)).toMatch(/^\/images\/310\/[\w-]{22}\.[0-9a-f]{32}\.\d+\.[\w-]+$/);
    expect(readImageKey(key, imageKey(key, link), link.expires * 1000 - 1)).toEqual(link);
    expect(readImageKey(key, imageKey(key, link), link.expires * 1000)).toBe('expired');
  });

  it('makes one link per 30-day window, living 30 to 60 days', () => {
    const day = 86_400_000;
    const expires = linkExpiry(now);
    expect(expires * 1000 - now).toBeGreaterThan(30 * day);
    expect(expires * 1000 - now).toBeLessThanOrEqual(60 * day);
    const windowStart = Math.floor(now / (30 * day)) * 30 * day;
    expect(linkExpiry(windowStart)).toBe(linkExpiry(windowStart + 30 * day - 1));
    expect(linkExpiry(windowStart + 30 * day)).toBe(linkExpiry(windowStart) + 30 * 86_400);
  });

  it('signs with a key derived apart from the server key', () => {
    expect(key.equals(serverKey)).toBe(false);
    expect(key.equals(Buffer.from(crypto.hkdfSync('sha256', serverKey, Buffer.alloc(0), 'vitrine image links v2', 32)))).toBe(true);
    // A key signed with the server key itself (the sealing key) is not ours.
    expect(readImageKey(key, imageKey(serverKey, link), now)).toBeNull();
  });

  it('refuses keys signed with another key, and keys whose shop, expiry or URL were changed', () => {
    expect(readImageKey(imageSigningKey(crypto.randomBytes(32)), imageKey(key, link), now)).toBeNull();
    const [signature, shopId, expires, url] = imageKey(key, link).split('.');
    const forged = (parts: string[]) => readImageKey(key, parts.join('.'), now);
    expect(forged([signature, 'fedcba9876543210fedcba9876543210', expires, url])).toBeNull();
    expect(forged([signature, shopId, String(Number(expires) + 30 * 86_400), url])).toBeNull();
    expect(forged([signature, shopId, expires, Buffer.from('http://169.254.169.254/').toString('base64url')])).toBeNull();
    for (const junk of ['no-dot', '.abc', 'a.b.c', 'a.b.c.d.e', `${signature}.${shopId}.1e9.${url}`, `${signature}.SHOP.${expires}.${url}`]) expect(readImageKey(key, junk, now)).toBeNull();
  });
});
