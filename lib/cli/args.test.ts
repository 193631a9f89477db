import { describe, expect, it } from 'vitest';
import { checkOptions, optional, parseArgs, required } from './args';

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

  it('refuses a value given to a flag, and an option the command does not take', () => {
    expect(() => parseArgs(['user', 'create', '--technical-notices=false'], ['technical-notices'])).toThrow('--technical-notices takes no value');
    const typo = parseArgs(['shop', 'create', '--name', 'X', '--curency', 'EUR'], ['listing-extended-default']);
    expect(() => checkOptions(typo, 'shop create', ['name', 'currency', 'listing-extended-default'])).toThrow(
      'unknown option --curency for "shop create"; it takes --name, --currency, --listing-extended-default',
    );
    const flag = parseArgs(['shop', 'list', '--technical-notices'], ['technical-notices']);
    expect(() => checkOptions(flag, 'shop list', [])).toThrow('unknown option --technical-notices for "shop list"; it takes no options');
    expect(() => checkOptions(parseArgs(['shop', 'create', '--name', 'X'], []), 'shop create', ['name'])).not.toThrow();
  });
});
