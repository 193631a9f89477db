import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeZodError } from '@/lib/http/zod-message';
import { CategoryInput, LocationInput, NodeId } from './schemas';

// The reason an import record shows for a rejected node.
function reasonOf(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected, got ${JSON.stringify(result.data)}`);
  return describeZodError(result.error);
}

describe('CategoryInput', () => {
  it('keeps string fields and makes a missing parent null', () => {
    expect(CategoryInput.parse({ id: 'shoes', name: 'Shoes', url: 'https://shop.example/shoes', alias: 'footwear' })).toEqual({
      id: 'shoes',
      name: 'Shoes',
      parent: null,
      url: 'https://shop.example/shoes',
      alias: 'footwear',
    });
  });

  it('stores numeric id and parent as strings', () => {
    expect(CategoryInput.parse({ id: 15, name: 'Boots', parent: 7 })).toEqual({ id: '15', name: 'Boots', parent: '7' });
    expect(CategoryInput.parse({ id: 0, name: 'Zero', parent: 0 })).toEqual({ id: '0', name: 'Zero', parent: '0' });
    expect(CategoryInput.parse({ id: 2.5, name: 'Half', parent: -1 })).toMatchObject({ id: '2.5', parent: '-1' });
    expect(CategoryInput.parse({ id: 2 ** 53 - 1, name: 'Largest exact', parent: -(2 ** 53 - 1) })).toMatchObject({ id: '9007199254740991', parent: '-9007199254740991' });
  });

  it('refuses a numeric id or parent that JSON.parse rounded, rather than store another id', () => {
    // 12345678901234567890 and 12345678901234567891 both parse to 12345678901234567000.
    expect(reasonOf(CategoryInput, JSON.parse('{"id":12345678901234567891,"name":"A","parent":null}'))).toBe('id is a number too large to keep exactly; send it as a string');
    expect(reasonOf(CategoryInput, { id: 'a', name: 'A', parent: 2 ** 53 })).toBe('parent is a number too large to keep exactly; send it as a string');
    expect(reasonOf(LocationInput, { id: 1e21, name: 'A', parent: null })).toBe('id is a number too large to keep exactly; send it as a string');
  });

  it('reads null, "" and a blank parent as a root', () => {
    for (const parent of [null, '', '   ']) {
      expect(CategoryInput.parse({ id: 'a', name: 'A', parent }).parent).toBeNull();
    }
  });

  it('trims id, name and parent', () => {
    expect(CategoryInput.parse({ id: ' a ', name: '  Shoes  ', parent: ' p ' })).toEqual({ id: 'a', name: 'Shoes', parent: 'p' });
  });

  it('keeps null url and alias as null', () => {
    expect(CategoryInput.parse({ id: 'a', name: 'A', url: null, alias: null })).toEqual({ id: 'a', name: 'A', parent: null, url: null, alias: null });
  });

  it('names a missing, empty or non-string name', () => {
    expect(reasonOf(CategoryInput, { id: 'a' })).toBe('name is required');
    expect(reasonOf(CategoryInput, { id: 'a', name: '' })).toBe('name must not be empty');
    expect(reasonOf(CategoryInput, { id: 'a', name: '   ' })).toBe('name must not be empty');
    expect(reasonOf(CategoryInput, { id: 'a', name: 12 })).toBe('name must be a string');
    expect(reasonOf(CategoryInput, { id: 'a', name: null })).toBe('name must be a string');
  });

  it('names a missing, empty, too long or wrongly typed id', () => {
    expect(reasonOf(CategoryInput, { name: 'A' })).toBe('id is required');
    expect(reasonOf(CategoryInput, { id: '', name: 'A' })).toBe('id must not be empty');
    expect(reasonOf(CategoryInput, { id: '  ', name: 'A' })).toBe('id must not be empty');
    expect(reasonOf(CategoryInput, { id: 'x'.repeat(256), name: 'A' })).toBe('id must be at most 255 characters');
    expect(CategoryInput.parse({ id: 'x'.repeat(255), name: 'A' }).id).toHaveLength(255);
    expect(reasonOf(CategoryInput, { id: true, name: 'A' })).toBe('id must be a string or a number');
    expect(reasonOf(CategoryInput, { id: null, name: 'A' })).toBe('id must be a string or a number');
    expect(reasonOf(CategoryInput, { id: ['a'], name: 'A' })).toBe('id must be a string or a number');
  });

  it('names a parent that is neither a string, a number nor null', () => {
    expect(reasonOf(CategoryInput, { id: 'a', name: 'A', parent: true })).toBe('parent must be a string, a number or null');
    expect(reasonOf(CategoryInput, { id: 'a', name: 'A', parent: { id: 'p' } })).toBe('parent must be a string, a number or null');
  });

  it('names non-string url and alias', () => {
    expect(reasonOf(CategoryInput, { id: 'a', name: 'A', url: 5 })).toBe('url must be a string');
    expect(reasonOf(CategoryInput, { id: 'a', name: 'A', alias: ['x'] })).toBe('alias must be a string');
  });

  it('lists every problem of a node, separated by "; "', () => {
    expect(reasonOf(CategoryInput, {})).toBe('id is required; name is required');
    expect(reasonOf(CategoryInput, { id: false, name: '', url: 1 })).toBe('id must be a string or a number; name must not be empty; url must be a string');
  });
});

describe('LocationInput', () => {
  it('accepts a full location and stores numeric id and parent as strings', () => {
    expect(
      LocationInput.parse({ id: 12, name: 'Store 12', parent: 3, type: 'store', group: ['north', 'outlet'], discount_percent: 12.5, search_level_up: 2 }),
    ).toEqual({ id: '12', name: 'Store 12', parent: '3', type: 'store', group: ['north', 'outlet'], discount_percent: 12.5, search_level_up: 2 });
  });

  it('requires the parent key, null marking a root', () => {
    expect(reasonOf(LocationInput, { id: 'nyc', name: 'New York' })).toBe('parent is required (null for a root)');
    expect(reasonOf(LocationInput, { id: 'nyc', name: 'New York', parent: undefined })).toBe('parent is required (null for a root)');
    expect(LocationInput.parse({ id: 'nyc', name: 'New York', parent: null })).toEqual({ id: 'nyc', name: 'New York', parent: null, group: null });
  });

  it('reads "" and a blank parent as a root', () => {
    expect(LocationInput.parse({ id: 'ny', name: 'NY', parent: '' }).parent).toBeNull();
    expect(LocationInput.parse({ id: 'ny', name: 'NY', parent: ' ' }).parent).toBeNull();
  });

  it('names a parent of the wrong type', () => {
    expect(reasonOf(LocationInput, { id: 'ny', name: 'NY', parent: false })).toBe('parent must be a string, a number or null');
    expect(reasonOf(LocationInput, { id: 'ny', name: 'NY', parent: {} })).toBe('parent must be a string, a number or null');
  });

  it('turns a single group string into a one-element array and keeps arrays', () => {
    expect(LocationInput.parse({ id: 'a', name: 'A', parent: null, group: 'north' }).group).toEqual(['north']);
    expect(LocationInput.parse({ id: 'a', name: 'A', parent: null, group: ['north', 'south'] }).group).toEqual(['north', 'south']);
    expect(LocationInput.parse({ id: 'a', name: 'A', parent: null, group: [] }).group).toEqual([]);
    expect(LocationInput.parse({ id: 'a', name: 'A', parent: null, group: null }).group).toBeNull();
  });

  it('names a group that is neither a string nor an array of strings', () => {
    expect(reasonOf(LocationInput, { id: 'a', name: 'A', parent: null, group: 5 })).toBe('group must be a string or an array of strings');
    expect(reasonOf(LocationInput, { id: 'a', name: 'A', parent: null, group: ['north', 7] })).toBe('group must be a string or an array of strings');
  });

  it('accepts integer search_level_up and rejects anything else', () => {
    expect(LocationInput.parse({ id: 'a', name: 'A', parent: null, search_level_up: 0 }).search_level_up).toBe(0);
    expect(LocationInput.parse({ id: 'a', name: 'A', parent: null, search_level_up: null }).search_level_up).toBeNull();
    expect(reasonOf(LocationInput, { id: 'a', name: 'A', parent: null, search_level_up: 1.5 })).toBe('search_level_up must be an integer');
    expect(reasonOf(LocationInput, { id: 'a', name: 'A', parent: null, search_level_up: '2' })).toBe('search_level_up must be an integer');
  });

  it('accepts a numeric discount_percent and names a string one', () => {
    expect(LocationInput.parse({ id: 'a', name: 'A', parent: null, discount_percent: 7.25 }).discount_percent).toBe(7.25);
    expect(reasonOf(LocationInput, { id: 'a', name: 'A', parent: null, discount_percent: '10' })).toBe('discount_percent must be a number');
  });

  it('names a non-string type', () => {
    expect(reasonOf(LocationInput, { id: 'a', name: 'A', parent: null, type: 3 })).toBe('type must be a string');
  });

  it('names a missing name and lists all problems of a bare node', () => {
    expect(reasonOf(LocationInput, { id: 'a', parent: null })).toBe('name is required');
    expect(reasonOf(LocationInput, {})).toBe('id is required; name is required; parent is required (null for a root)');
  });
});

describe('NodeId (DELETE entries)', () => {
  it('takes a string or a number as an id string', () => {
    expect(NodeId.parse('shoes')).toBe('shoes');
    expect(NodeId.parse(' shoes ')).toBe('shoes');
    expect(NodeId.parse(42)).toBe('42');
  });

  it('names what is wrong with other entries', () => {
    expect(reasonOf(NodeId, '')).toBe('id must not be empty');
    expect(reasonOf(NodeId, null)).toBe('id must be a string or a number');
    expect(reasonOf(NodeId, { id: 'shoes' })).toBe('id must be a string or a number');
  });
});
