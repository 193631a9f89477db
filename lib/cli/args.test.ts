import { describe, expect, it } from 'vitest';
import { optional, parseArgs, required } from './args';

describe('parseArgs', () => {
  it('reads words, repeated options, inline values and flags', () => {
    const args = parseArgs(['user', 'create', '--email', 'a@b.c', '--shop', 's1', '--shop=s2', '--technical-notices'], ['technical-notices']);
    expect(args.words).toEqual(['user', 'create']);
    expect(args.options.get('shop')).toEqual(['s1', 's2']);
    expect(required(args, 'email')).toBe('a@b.c');
    expect(args.flags.has('technical-notices')).toBe(true);
    expect(optional(args, 'currency')).toBeUndefined();
  });

  it('names a missing value and a missing required option', () => {
    expect(() => parseArgs(['shop', 'create', '--name'], [])).toThrow('--name needs a value');
    expect(() => required(parseArgs(['shop', 'create'], []), 'name')).toThrow('--name is required');
  });
});
