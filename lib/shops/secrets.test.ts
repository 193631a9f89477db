import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DECOY_HASH, hashSecret, sealSecret, unsealSecret, verifySecret } from './secrets';

describe('secret hashing', () => {
  it('verifies the right secret only, with a fresh salt each time', async () => {
    const first = await hashSecret('s3cret');
    const second = await hashSecret('s3cret');
    expect(first).not.toBe(second);
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifySecret('s3cret', first)).toBe(true);
    expect(await verifySecret('s3cret!', first)).toBe(false);
  });

  it('never matches the decoy', async () => {
    expect(await verifySecret('', DECOY_HASH)).toBe(false);
    expect(await verifySecret('anything', DECOY_HASH)).toBe(false);
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
