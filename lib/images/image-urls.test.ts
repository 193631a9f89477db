import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { imageKey, originalOf, resizedImagePath } from './image-urls';

describe('signed image keys', () => {
  const key = crypto.randomBytes(32);
  const url = 'https://cdn.example/img/1.jpg?v=2&size=big#x';

  it('gives back the original for a key it made', () => {
    expect(originalOf(key, imageKey(key, url))).toBe(url);
    expect(resizedImagePath(key, 310, url)).toMatch(/^\/images\/310\/[\w-]{22}\.[\w-]+$/);
  });

  it('refuses keys signed with another key, changed URLs and junk', () => {
    expect(originalOf(crypto.randomBytes(32), imageKey(key, url))).toBeNull();
    const [signature] = imageKey(key, url).split('.');
    expect(originalOf(key, `${signature}.${Buffer.from('http://169.254.169.254/').toString('base64url')}`)).toBeNull();
    expect(originalOf(key, 'no-dot')).toBeNull();
    expect(originalOf(key, '.abc')).toBeNull();
  });
});
