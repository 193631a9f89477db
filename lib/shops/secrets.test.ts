import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DECOY_HASH, STAFF_DECOY_HASH, STAFF_PASSWORD_PARAMS, hashSecret, sealSecret, unsealSecret, verifySecret, weakerThan } from './secrets';

describe('secret hashing', () => {
  it('verifies the right secret only, with a fresh salt each time', async () => {
    const first = await hashSecret('s3cret');
    const second = await hashSecret('s3cret');
    expect(first).not.toBe(second);
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifySecret('s3cret', first)).toBe(true);
    expect(await verifySecret('s3cret!', first)).toBe(false);
  });

  it('never matches the decoys', async () => {
    expect(await verifySecret('', DECOY_HASH)).toBe(false);
    expect(await verifySecret('anything', DECOY_HASH)).toBe(false);
    expect(await verifySecret('anything', STAFF_DECOY_HASH)).toBe(false);
  });

  it('hashes staff passwords with N = 2^17 and tells hashes made with less work', async () => {
    const staff = await hashSecret('a long password', STAFF_PASSWORD_PARAMS);
    expect(staff).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifySecret('a long password', staff)).toBe(true);
    expect(await verifySecret('a long passworD', staff)).toBe(false);
    expect(weakerThan(staff, STAFF_PASSWORD_PARAMS)).toBe(false);
    expect(weakerThan(await hashSecret('a long password'), STAFF_PASSWORD_PARAMS)).toBe(true);
    expect(weakerThan('bcrypt$whatever', STAFF_PASSWORD_PARAMS)).toBe(true);
    // The staff decoy costs what a real staff hash costs.
    expect(STAFF_DECOY_HASH.split('$').slice(0, 4)).toEqual(staff.split('$').slice(0, 4));
  });

  it('refuses stored hashes whose cost is not ours rather than run them', async () => {
    expect(await verifySecret('x', 'scrypt$1073741824$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
    expect(await verifySecret('x', 'scrypt$abc$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
  });
});

describe('secret sealing', () => {
  it('round-trips under the key and fails under another', () => {
    const key = crypto.randomBytes(32);
    const sealed = sealSecret(key, 'shop-secret');
    expect(sealed).not.toContain('shop-secret');
    expect(unsealSecret(key, sealed)).toBe('shop-secret');
    expect(() => unsealSecret(crypto.randomBytes(32), sealed)).toThrow();
  });
});
