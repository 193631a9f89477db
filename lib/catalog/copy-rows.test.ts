import { describe, expect, it } from 'vitest';
import { copyField } from './copy-rows';

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
});
