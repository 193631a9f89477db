import { describe, expect, it } from 'vitest';
import { operationFor } from './operations';

describe('operationFor', () => {
  it('maps tree methods as the platform documents them', () => {
    expect(operationFor('categories', 'POST')).toBe('categories.replace');
    expect(operationFor('categories', 'PUT')).toBe('categories.upsert');
    expect(operationFor('locations', 'DELETE')).toBe('locations.delete');
    expect(operationFor('locations', 'PATCH')).toBeNull();
  });

  it('maps product methods, POST without method being a full load', () => {
    expect(operationFor('products', 'PUT')).toBe('products.put');
    expect(operationFor('products', 'PATCH')).toBe('products.patch');
    expect(operationFor('products', 'DELETE')).toBe('products.delete');
    expect(operationFor('products', 'POST')).toBe('products.load');
  });
});
