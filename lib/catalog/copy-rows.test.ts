import { describe, expect, it } from 'vitest';
import { BinaryRows, copyField } from './copy-rows';

describe('copyField (COPY text format)', () => {
  it('writes NULL, Booleans and numbers', () => {
    expect(copyField(null)).toBe('\\N');
    expect(copyField(undefined)).toBe('\\N');
    expect(copyField(true)).toBe('t');
    expect(copyField(false)).toBe('f');
    expect(copyField(71.5)).toBe('71.5');
  });

  it('escapes backslash, tab, newline and carriage return, and drops NUL', () => {
    expect(copyField('plain')).toBe('plain');
    expect(copyField('a\\b\tc\nd\re\0f')).toBe('a\\\\b\\tc\\nd\\re' + 'f');
    // A surrogate pair is kept; one left unpaired (text cut through an emoji) becomes U+FFFD.
    expect(copyField('smile \u{1f600}')).toBe('smile \u{1f600}');
    expect(copyField('cut \ud83d here')).toBe('cut \ufffd here');
  });

  it('writes arrays as quoted literals, escaped twice', () => {
    expect(copyField(['a', 'b c'])).toBe('{"a","b c"}');
    expect(copyField(['say "hi"', 'back\\slash', 'tab\there'])).toBe('{"say \\\\"hi\\\\"","back\\\\\\\\slash","tab\\there"}');
  });

  it('writes JSON with its backslashes doubled and NUL characters removed', () => {
    expect(copyField({ json: { a: 'x"y', b: 'line\nbreak' } })).toBe('{"a":"x\\\\"y","b":"line\\\\nbreak"}');
    expect(copyField({ json: { a: 'nul\0here' } })).toBe('{"a":"nulhere"}');
    expect(copyField({ json: [1, 'two'] })).toBe('[1,"two"]');
  });

  it('writes JSON text as given when COPY can take it as it is, else as the value it stands for', () => {
    const json = { a: 'x', b: [1, 2] };
    expect(copyField({ json, text: '{"b": [1, 2], "a": "x"}' })).toBe('{"b": [1, 2], "a": "x"}');
    // Whitespace COPY would read as a field or row end: the value's own text instead.
    expect(copyField({ json, text: '{"a":\t"x",\n"b":[1,2]}' })).toBe('{"a":"x","b":[1,2]}');
    // An escape: backslashes doubled; one that PostgreSQL cannot store: removed from the value.
    expect(copyField({ json: { a: 'x"y' }, text: '{"a": "x\\"y"}' })).toBe('{"a": "x\\\\"y"}');
    expect(copyField({ json: { a: 'nul\0here' }, text: '{"a":"nul\\u0000here"}' })).toBe('{"a":"nulhere"}');
  });
});

describe('BinaryRows.spacedNumbers', () => {
  const written = (numbers: number[] | null, count: number) => {
    const rows = new BinaryRows(8);
    rows.spacedNumbers(numbers, count);
    const bytes = rows.take();
    const length = bytes.readInt32BE(0);
    return length < 0 ? null : bytes.toString('latin1', 4, 4 + length);
  };

  it('writes the first count numbers as one text field, separated by spaces', () => {
    expect(written([0, 7, 10, 99, 100, 123456789, 4294967295], 7)).toBe('0 7 10 99 100 123456789 4294967295');
    expect(written([3, 21, 5], 2)).toBe('3 21');
    expect(written([], 0)).toBe('');
  });

  it('writes NULL for null', () => {
    expect(written(null, 0)).toBeNull();
  });

  it('gives what the text of join(" ") gives, through growth', () => {
    const rows = new BinaryRows(16);
    const expected = new BinaryRows(16);
    for (let n = 0; n < 200; n++) {
      const numbers = Array.from({ length: n % 40 }, (_, i) => (i * 7919 + n * 104729) % 1_000_003);
      rows.spacedNumbers(numbers, numbers.length);
      expected.field('text', numbers.join(' '));
    }
    expect(rows.take().equals(expected.take())).toBe(true);
  });
});
