import crypto from 'node:crypto';
import type { Sql } from 'postgres';
import { AppError } from '@/lib/http/errors';
import { noteRequestShop } from '@/lib/runtime/request-context';
import { DECOY_HASH, verifySecret } from './secrets';

export type ShopIdentity = { id: string; name: string; currency: string };

// scrypt costs tens of milliseconds; a shop sends the same secret with every request, so a
// verified (hash, sha256(secret)) pair is remembered. A rotated secret changes the hash and
// misses the cache.
const verified = new Map<string, { hash: string; digest: Buffer; until: number }>();
const REMEMBER_MS = 5 * 60_000;

function digestOf(secret: string) {
  return crypto.createHash('sha256').update(secret).digest();
}

// Checks running, by shop, hash and the secret's digest: a shop's client sending many requests at
// once (a burst of 45 callbacks) made as many scrypts on libuv's pool, which took both cores from
// the serving thread for a second. The same secret checked against the same hash shares one.
const checking = new Map<string, Promise<boolean>>();

/** Whether `secret` matches `hash`, each distinct check running once however many ask for it at once. */
export async function secretMatches(shopId: string, secret: string, hash: string): Promise<boolean> {
  const digest = digestOf(secret);
  const known = verified.get(shopId);
  if (known && known.hash === hash && known.until > Date.now() && crypto.timingSafeEqual(known.digest, digest)) return true;
  const key = `${shopId}\u0000${hash}\u0000${digest.toString('hex')}`;
  let check = checking.get(key);
  if (!check) {
    check = verifySecret(secret, hash).finally(() => checking.delete(key));
    checking.set(key, check);
  }
  const ok = await check;
  if (ok) verified.set(shopId, { hash, digest, until: Date.now() + REMEMBER_MS });
  return ok;
}

/**
 * The shop whose id and secret these are. An unknown id and a wrong secret give the same
 * error and cost the same time.
 */
export async function authenticateShop(sql: Sql, shopId: unknown, secret: unknown, message = 'Invalid shop_id or shop_secret'): Promise<ShopIdentity> {
  const id = typeof shopId === 'number' ? String(shopId) : shopId;
  // A NUL cannot be in any stored id, and PostgreSQL would refuse the parameter.
  if (typeof id !== 'string' || typeof secret !== 'string' || !id || !secret || id.includes('\0')) {
    throw new AppError('UNAUTHORIZED', message);
  }
  const [shop] = await sql<{ id: string; name: string; currency: string; secret_hash: string }[]>`
    select id, name, currency, secret_hash from shops where id = ${id}`;
  const ok = await secretMatches(id, secret, shop?.secret_hash ?? DECOY_HASH);
  if (!shop || !ok) throw new AppError('UNAUTHORIZED', message);
  noteRequestShop(shop.id);
  return { id: shop.id, name: shop.name, currency: shop.currency };
}
