import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;
export type ScryptParams = { N: number; r: number; p: number };

// Shop secrets are 48 random hex characters: nothing to guess, and checked on every import.
export const SHOP_SECRET_PARAMS: ScryptParams = { N: 2 ** 14, r: 8, p: 1 };
// Staff passwords are chosen by people, and checked once a session: 128 MiB and ~0.35 s a hash here.
export const STAFF_PASSWORD_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
// Past this a stored hash is not ours (scrypt's memory is 128 · N · r bytes).
const MAX_N = 2 ** 20;

const memoryFor = ({ N, r }: ScryptParams) => 256 * N * r;

/** `scrypt$N$r$p$salt$hash`, salts and hashes in base64url. */
export async function hashSecret(secret: string, params: ScryptParams = SHOP_SECRET_PARAMS): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(secret, salt, 32, { ...params, maxmem: memoryFor(params) });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

function paramsOf(stored: string): ScryptParams | null {
  const [scheme, n, r, p] = stored.split('$');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !Number.isInteger(params.N) || params.N > MAX_N || !(params.r >= 1 && params.r <= 32) || params.p !== 1) return null;
  return params;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const params = paramsOf(stored);
  const [, , , , salt, hash] = stored.split('$');
  if (!params || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64url'), expected.length, { ...params, maxmem: memoryFor(params) });
  return crypto.timingSafeEqual(actual, expected);
}

/** Whether a stored hash was made with less work than `params` asks (to be made anew at the next sign-in). */
export function weakerThan(stored: string, params: ScryptParams): boolean {
  const own = paramsOf(stored);
  return !own || own.N < params.N || own.r < params.r;
}

// Compared against when a shop id (or a staff email) is unknown, so a miss costs what a wrong secret costs.
export const DECOY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
export const STAFF_DECOY_HASH = 'scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export function generateToken(bytes: number): string {
  return crypto.randomBytes(bytes).toString('hex');
}

export function sealSecret(key: Buffer, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function unsealSecret(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
