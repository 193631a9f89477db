import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StateTable } from './state-table';

const digestOf = (text: string) => '2:' + crypto.hash('sha256', text, 'base64').slice(0, 22);

describe('StateTable', () => {
  it('keeps each id with its digest and availability, as a Map would, through growth', () => {
    const table = new StateTable('2:');
    const model = new Map<string, { digest: string | null; available: boolean }>();
    // Ids of one length differing in one character, numbers, non-ASCII, the empty id.
    const ids = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? `p${i}` : i % 3 === 1 ? String(i * 7919) : `ü-${i}-😀`));
    ids.push('', 'a', 'b');
    let seed = 1;
    const random = () => ((seed = (Math.imul(seed, 48271) + 11) >>> 0) % 1000) / 1000;
    for (let round = 0; round < 3; round++) {
      for (const id of ids) {
        if (random() < 0.5) continue;
        const digest = random() < 0.1 ? null : digestOf(`${id}:${round}`);
        const available = random() < 0.5;
        table.set(id, digest, available);
        model.set(id, { digest, available });
      }
    }
    expect(table.size).toBe(model.size);
    for (const id of ids) {
      const entry = table.find(id);
      const expected = model.get(id);
      if (!expected) {
        expect(entry).toBe(-1);
        continue;
      }
      expect({ digest: table.digest(entry), available: table.available(entry) }).toEqual(expected);
      expect(table.sameDigest(entry, expected.digest)).toBe(expected.digest !== null);
      expect(table.sameDigest(entry, digestOf(`${id}:other`))).toBe(false);
    }
    expect(table.find('p1')).toBe(-1); // never set: 1 % 3 is not 0
  });

  it('keeps a digest of another form as none, which no item matches', () => {
    const table = new StateTable('2:');
    table.set('a', '1:' + 'A'.repeat(22), true);
    table.set('b', '2:short', true);
    table.set('c', '2:' + '-'.repeat(22), true);
    expect(['a', 'b', 'c'].map((id) => table.digest(table.find(id)))).toEqual([null, null, null]);
    const digest = '2:' + '/'.repeat(21) + 'w';
    table.set('a', digest, true);
    expect(table.digest(table.find('a'))).toBe(digest);
  });

  it('tells a digest equal to the stored one from any that differs in one character, without making it', () => {
    const table = new StateTable('2:');
    const digest = digestOf('item');
    table.set('a', digest, true);
    table.set('none', null, true);
    const entry = table.find('a');
    expect(table.sameDigest(entry, digest)).toBe(true);
    for (let i = 0; i < digest.length; i++) {
      for (const replacement of ['A', '/', 'é', '1']) {
        const other = digest.slice(0, i) + replacement + digest.slice(i + 1);
        expect(table.sameDigest(entry, other)).toBe(other === digest);
      }
    }
    for (const other of [null, digest.slice(0, -1), digest + 'A', '3:' + digest.slice(2)]) expect(table.sameDigest(entry, other)).toBe(false);
    expect(table.sameDigest(table.find('none'), digest)).toBe(false);
    expect(table.sameDigest(table.find('none'), null)).toBe(false);
  });

  it('flips availability by entry and takes every product out of stock at once', () => {
    const table = new StateTable('2:');
    table.set('a', null, true);
    table.set('b', null, false);
    table.setAvailable(table.find('b'), true);
    expect([table.available(table.find('a')), table.available(table.find('b'))]).toEqual([true, true]);
    table.setNoneAvailable();
    expect([table.available(table.find('a')), table.available(table.find('b'))]).toEqual([false, false]);
  });
});
